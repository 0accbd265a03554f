package embed

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// EnvHubEndpoint overrides the Hugging Face address Pull downloads from
// (a mirror), as the Hugging Face tools do.
const EnvHubEndpoint = "HF_ENDPOINT"

const defaultHubEndpoint = "https://huggingface.co"

// Pull downloads a model2vec model from the Hugging Face hub
// ({endpoint}/{name}/resolve/main/{file} for model.safetensors,
// tokenizer.json and config.json) into cacheDir/{name} (cacheDir default
// DefaultCacheDir) and returns that folder. The files go to a temporary
// folder beside it, are checked by loading the model, and only then
// replace any previous copy with a rename, so an interrupted or bad
// download never leaves a half model behind. A missing config.json is
// tolerated; a missing model or tokenizer wraps ErrModelNotFound.
//
// progress, if not nil, is called as bytes arrive with the bytes done so
// far and the total of the sizes announced so far (-1 while a size is
// unknown); the model weights come last and dominate the total.
func Pull(ctx context.Context, name, cacheDir string, client *http.Client, progress func(done, total int64)) (string, error) {
	if !ValidModelName(name) {
		return "", fmt.Errorf("pull %q: want a Hugging Face model name such as %s", name, DefaultModel2Vec)
	}
	cacheDir, err := cacheDirOr(cacheDir)
	if err != nil {
		return "", err
	}
	if client == nil {
		client = http.DefaultClient
	}
	endpoint := cmp.Or(strings.TrimRight(os.Getenv(EnvHubEndpoint), "/"), defaultHubEndpoint)
	final := filepath.Join(cacheDir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", fmt.Errorf("pull %s: %w", name, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(final), ".pull-*")
	if err != nil {
		return "", fmt.Errorf("pull %s: %w", name, err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed

	d := &download{client: client, progress: progress}
	for _, f := range []string{model2vecConfig, model2vecTokenizer, model2vecWeights} {
		u := endpoint + "/" + name + "/resolve/main/" + url.PathEscape(f)
		err := d.fetch(ctx, u, filepath.Join(tmp, f))
		if errors.Is(err, errNotOnHub) && f == model2vecConfig {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("pull %s: %s: %w", name, f, err)
		}
	}
	if _, err := LoadModel2Vec(tmp); err != nil {
		return "", fmt.Errorf("pull %s: the download is not a usable model2vec model: %w", name, err)
	}
	if err := syncDir(tmp); err != nil {
		return "", fmt.Errorf("pull %s: %w", name, err)
	}

	// Move any previous copy aside, put the new one in place, then drop
	// the old one.
	var old string
	if _, err := os.Stat(final); err == nil {
		old = tmp + ".old"
		if err := os.Rename(final, old); err != nil {
			return "", fmt.Errorf("pull %s: %w", name, err)
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if old != "" {
			_ = os.Rename(old, final)
		}
		return "", fmt.Errorf("pull %s: %w", name, err)
	}
	if old != "" {
		_ = os.RemoveAll(old)
	}
	_ = syncDir(filepath.Dir(final))
	return final, nil
}

var errNotOnHub = fmt.Errorf("%w: not on the hub", ErrModelNotFound)

// download tracks progress across files; it reads the body of the file
// being fetched.
type download struct {
	client      *http.Client
	progress    func(done, total int64)
	done, total int64
	body        io.Reader
}

func (d *download) fetch(ctx context.Context, u, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "vaultgraph")
	resp, err := d.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return errNotOnHub
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	if resp.ContentLength >= 0 && d.total >= 0 {
		d.total += resp.ContentLength
	} else {
		d.total = -1
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	d.body = resp.Body
	n, err := io.Copy(f, d)
	if err == nil && resp.ContentLength >= 0 && n != resp.ContentLength {
		err = fmt.Errorf("GET %s: got %d of %d bytes", u, n, resp.ContentLength)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Read reads the body, counting the bytes for progress.
func (d *download) Read(b []byte) (int, error) {
	n, err := d.body.Read(b)
	if n > 0 {
		d.done += int64(n)
		if d.progress != nil {
			d.progress(d.done, d.total)
		}
	}
	return n, err
}

// syncDir makes a folder's entries durable (best effort where folders
// cannot be opened for sync).
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	_ = f.Sync()
	return nil
}
