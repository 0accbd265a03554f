//go:build e2e

package webe2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// token is the bearer token the served app asks for.
const token = "e2e-token"

// server is a running `vaultgraph serve --http` on a vault folder.
type server struct {
	url string // http://127.0.0.1:PORT/
	cmd *exec.Cmd
	log bytes.Buffer
}

// binary is the vaultgraph binary under test ($BIN, else bin/vaultgraph).
func binary(t *testing.T) string {
	bin := os.Getenv("BIN")
	if bin == "" {
		bin = "../../bin/vaultgraph"
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		t.Fatalf("no vaultgraph binary at %s (make build): %v", abs, err)
	}
	return abs
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// serve starts the server on dir and waits until it answers.
func serve(t *testing.T, dir string, wait time.Duration, extra ...string) *server {
	port := freePort(t)
	s := &server{url: fmt.Sprintf("http://127.0.0.1:%d/", port)}
	s.cmd = exec.Command(binary(t), "serve", dir, "--http", fmt.Sprint(port), "--token", token,
		"--read-only", "--debounce", "50ms", "--index", filepath.Join(t.TempDir(), "index.db"))
	s.cmd.Args = append(s.cmd.Args, extra...)
	s.cmd.Stderr = &s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(os.Interrupt)
		_ = s.cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", s.log.String())
		}
	})
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if res, err := http.Get(s.url + "api/status"); err == nil {
			res.Body.Close()
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("server at %s did not answer within %s:\n%s", s.url, wait, s.log.String())
	return nil
}

// browser starts headless Chromium (Debian's package) and returns a tab.
// Any JavaScript dialog (alert, confirm) fails the test: nothing in the
// vault may open one.
func browser(t *testing.T) context.Context {
	exe := os.Getenv("CHROMIUM")
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1400, 900),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancel2)
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			t.Errorf("a JavaScript dialog opened: %q", e.Message)
			go chromedp.Run(ctx, page.HandleJavaScriptDialog(false))
		case *cdpruntime.EventExceptionThrown:
			t.Errorf("uncaught exception in the page: %s", e.ExceptionDetails.Error())
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium %s: %v", exe, err)
	}
	return ctx
}

// run runs actions with a deadline, failing the test with what step.
func run(t *testing.T, ctx context.Context, what string, d time.Duration, actions ...chromedp.Action) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if err := chromedp.Run(c, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitJS polls a JavaScript expression until it is true.
func waitJS(t *testing.T, ctx context.Context, what, expr string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate("!!("+expr+")", &ok)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var html string
			_ = chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("view")?.innerText?.slice(0, 600) || ""`, &html))
			t.Fatalf("%s: %s not true within %s; the page shows:\n%s", what, expr, d, html)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// shot takes a screenshot of the element sel, saves it under e2e/out/ as
// name (when name is not ""), and returns how many of its pixels are
// neither white nor near white: what the canvas drew.
func shot(t *testing.T, ctx context.Context, sel, name string) int {
	t.Helper()
	var buf []byte
	run(t, ctx, "screenshot "+sel, 90*time.Second, chromedp.Screenshot(sel, &buf, chromedp.ByQuery))
	if name != "" {
		save(t, name, buf)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("decode screenshot: %v", err)
	}
	return inked(img)
}

func save(t *testing.T, name string, buf []byte) {
	out := filepath.Join("..", "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// inked counts the pixels of img that are clearly coloured (a drawn node
// or edge, not the white background or its border).
func inked(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y + 4; y < b.Max.Y-4; y++ {
		for x := b.Min.X + 4; x < b.Max.X-4; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl)-min(r, g, bl) > 0x2000 || max(r, g, bl) < 0xd000 {
				n++
			}
		}
	}
	return n
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var s string
	run(t, ctx, "text of "+sel, 10*time.Second, chromedp.Text(sel, &s, chromedp.ByQuery))
	return strings.TrimSpace(s)
}

// click clicks the first element sel matches, in the page itself: a
// view that renders its list again between finding the element and
// clicking it (a search answered twice, a live update) cannot leave
// the click on a node that is gone, as a click by DOM node id can.
func click(t *testing.T, ctx context.Context, what, sel string) {
	t.Helper()
	waitJS(t, ctx, what, `(() => { const el = document.querySelector(`+strconv.Quote(sel)+`); if (!el) return false; el.click(); return true; })()`, 10*time.Second)
}
