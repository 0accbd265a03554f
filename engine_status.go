package vaultgraph

import (
	"context"
	"sort"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Status describes the vault and the engine's state.
type Status struct {
	Vault       string `json:"vault"`
	Notes       int    `json:"notes"`
	Links       int    `json:"links"`
	BrokenLinks int    `json:"brokenLinks"`
	// BrokenAnchors counts links whose note exists but whose heading or
	// block does not ([[Note#Nope]], [[#Nope]], [[Note#^nope]]).
	BrokenAnchors int `json:"brokenAnchors"`
	// AttachmentLinks counts links to images, PDFs and other files.
	AttachmentLinks int `json:"attachmentLinks"`
	Attachments     int `json:"attachments"`
	Tags            int `json:"tags"`
	// Edges counts distinct note-to-note links in the graph.
	Edges int `json:"edges"`
	// Embeddings is the share of notes with an embedding vector (0..1).
	Embeddings float64 `json:"embeddingCoverage"`
	// EmbeddingModel names the model of the vectors ("" without one).
	EmbeddingModel string `json:"embeddingModel"`
	// Embedding is the background embedder's state: off, starting,
	// embedding (with progress), ready, or its last error.
	Embedding string `json:"embedding"`
	// Index is the index file's path, or "memory" without one.
	Index string `json:"index"`
	// IndexBytes is the index's size on disk.
	IndexBytes int64 `json:"indexBytes"`
	// Watcher is "off" or "running".
	Watcher  string    `json:"watcher"`
	LastSync time.Time `json:"lastSync"`
	// LoadTimeMs is how long the last full load took.
	LoadTimeMs int64 `json:"loadTimeMs"`
	// Problems lists files that could not be indexed, and why.
	Problems []vault.Problem `json:"problems"`
	// NotesWithWarnings counts notes indexed with a warning.
	NotesWithWarnings int `json:"notesWithWarnings"`
	// DuplicateNames lists base names shared by several notes.
	DuplicateNames []DuplicateName `json:"duplicateNames"`
	// RenameRepairs counts the renames made outside vaultgraph whose
	// links wait for RepairLinks.
	RenameRepairs int `json:"renameRepairs"`
}

// DuplicateName is a note name shared by several notes; a bare [[Name]]
// link resolves to the one Obsidian prefers.
type DuplicateName struct {
	Name string   `json:"name"`
	IDs  []string `json:"ids"`
}

// Status reports counts, state and problems.
func (e *Engine) Status(ctx context.Context) (*Status, error) {
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	s := &Status{
		Vault:      e.root,
		Notes:      len(e.notes),
		Edges:      e.graph.EdgeCount(),
		Tags:       len(e.graph.Tags()),
		Index:      "memory",
		Watcher:    e.watcher,
		LastSync:   e.lastSync,
		LoadTimeMs: e.loadTime.Milliseconds(),
		Problems:   []vault.Problem{},

		RenameRepairs: e.renames.count(),
	}
	// The anchors, the longest count, are checked beside the rest (both
	// only read, under the read lock).
	anchors := make(chan int, 1)
	go func() {
		n := 0
		for _, ns := range e.notes {
			n += len(e.brokenAnchors(ns))
		}
		anchors <- n
	}()
	byName := make(map[string][]string, len(e.notes))
	for id, ns := range e.notes {
		links, broken, attachments := ns.linkCounts()
		s.Links += links
		s.BrokenLinks += broken
		s.AttachmentLinks += attachments
		if len(ns.note.Warnings) > 0 {
			s.NotesWithWarnings++
		}
		name := vault.Fold(vault.BaseName(id))
		byName[name] = append(byName[name], id)
	}
	s.BrokenAnchors = <-anchors
	s.Attachments = e.index.FileCount()
	s.Problems = e.problemList()
	s.DuplicateNames = []DuplicateName{}
	for _, ids := range byName {
		if len(ids) > 1 {
			sort.Strings(ids)
			s.DuplicateNames = append(s.DuplicateNames, DuplicateName{Name: vault.BaseName(ids[0]), IDs: ids})
		}
	}
	sort.Slice(s.DuplicateNames, func(i, j int) bool { return s.DuplicateNames[i].Name < s.DuplicateNames[j].Name })
	if e.store != nil {
		s.Index, s.IndexBytes = e.store.Path(), e.store.Size()
	}
	es := e.embeddingStatus(len(e.notes))
	s.Embeddings, s.EmbeddingModel, s.Embedding = es.Coverage, es.Model, es.State
	return s, nil
}
