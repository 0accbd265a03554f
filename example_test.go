package vaultgraph_test

import (
	"context"
	"fmt"
	"log"

	"github.com/vaultgraph/vaultgraph"
)

func ExampleEngine_GetNode() {
	ctx := context.Background()
	e := vaultgraph.New(vaultgraph.Options{Vault: "testvault", NoIndex: true})
	if err := e.Open(ctx); err != nil {
		log.Fatal(err)
	}
	defer e.Close()

	// Any letter case, with or without .md, or a bare note name.
	n, err := e.GetNode(ctx, "home", false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n.ID, "-", n.Title)
	fmt.Println("tags:", n.Tags)
	for _, l := range n.Links {
		fmt.Printf("links to %s (%s)\n", l.ID, l.Title)
	}
	fmt.Println("broken:", n.Broken)
	fmt.Println("attachments:", n.Attachments)
	fmt.Println("in:", n.InDegree, "out:", n.OutDegree)
	// Output:
	// Home.md - Home
	// tags: [home index MOC]
	// links to Archive/Alpha Plan.md (Alpha Plan)
	// links to Projects/Alpha Plan.md (Alpha Plan)
	// links to Projects/Beta.md (Beta)
	// links to Deep/Nested/Folder/Deep Note.md (Deep Note)
	// links to Notes/Café Menu.md (Café Menu)
	// links to Notes/Meeting Notes.md (Meeting Notes)
	// broken: [Missing Note]
	// attachments: [Diagram.png report.pdf]
	// in: 6 out: 6
}

func ExampleEngine_FindPath() {
	ctx := context.Background()
	e := vaultgraph.New(vaultgraph.Options{Vault: "testvault", NoIndex: true})
	if err := e.Open(ctx); err != nil {
		log.Fatal(err)
	}
	defer e.Close()

	// Links count in both directions unless directed is true.
	p, _, err := e.FindPath(ctx, "Old Ideas", "東京 Trip", false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Length, p.Path)

	p, _, err = e.FindPath(ctx, "Old Ideas", "東京 Trip", true)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p == nil)
	// Output:
	// 3 [Archive/Old Ideas.md Archive/Alpha Plan.md Notes/Meeting Notes.md Notes/東京 Trip.md]
	// true
}

func ExampleEngine_SearchByTags() {
	ctx := context.Background()
	e := vaultgraph.New(vaultgraph.Options{Vault: "testvault", NoIndex: true})
	if err := e.Open(ctx); err != nil {
		log.Fatal(err)
	}
	defer e.Close()

	// "project" also matches the nested tags project/alpha and project/beta.
	nodes, total, err := e.SearchByTags(ctx, []string{"project"}, false, 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(total, "notes")
	for _, n := range nodes {
		fmt.Printf("%s %q %v\n", n.ID, n.Title, n.Tags)
	}

	nodes, _, err = e.SearchByTags(ctx, []string{"project", "beta"}, true, 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("all of project, beta:", nodes[0].ID)
	// Output:
	// 3 notes
	// Projects/Alpha Plan.md "Alpha Plan" [project project/alpha]
	// Projects/Beta.md "Beta" [project beta project/beta]
	// Tagged.md "Tag Examples" [Project ideas ideas/later start]
	// all of project, beta: Projects/Beta.md
}
