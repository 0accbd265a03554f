// Package web is vaultgraph's web app: a page to search, read and browse
// the vault as a graph, and the small read-only JSON API under /api/ it
// talks to. Every answer comes from the Engine's own methods (search,
// notes, links, paths, hubs, tags); the note page is rendered with
// goldmark and sanitised with bluemonday, so a note's HTML or script never
// runs. The page, its script, styles and the vendored graph library
// (sigma.js with graphology, web/vendor) are embedded in the binary.
package web
