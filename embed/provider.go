package embed

import "context"

// Provider turns texts into vectors. Implementations must be safe for
// concurrent use.
type Provider interface {
	// Embed returns one vector per text, each of Dimension() floats.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model names the model, so that vectors made by another model are
	// never compared with these.
	Model() string
	// Dimension is the length of every vector.
	Dimension() int
}
