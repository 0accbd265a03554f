package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestCheckOrigin(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h := checkOrigin(ok)
	tests := []struct {
		desc   string
		origin string
		host   string
		want   int
	}{
		{desc: "no origin (not a browser)", origin: "", host: "127.0.0.1:8765", want: http.StatusNoContent},
		{desc: "localhost page", origin: "http://localhost:3000", host: "127.0.0.1:8765", want: http.StatusNoContent},
		{desc: "loopback IPv4 page", origin: "http://127.0.0.1:5173", host: "127.0.0.1:8765", want: http.StatusNoContent},
		{desc: "loopback IPv6 page", origin: "http://[::1]:5173", host: "[::1]:8765", want: http.StatusNoContent},
		{desc: "same host", origin: "https://notes.example:8765", host: "notes.example:8765", want: http.StatusNoContent},
		{desc: "foreign site", origin: "https://evil.example", host: "127.0.0.1:8765", want: http.StatusForbidden},
		{desc: "rebound name", origin: "http://attacker.test:8765", host: "127.0.0.1:8765", want: http.StatusForbidden},
		{desc: "null origin", origin: "null", host: "127.0.0.1:8765", want: http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "http://"+tt.host+"/mcp", nil)
			r.Host = tt.host
			if tt.origin != "" {
				r.Header.Set("Origin", tt.origin)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.want {
				t.Errorf("Origin %q to %s: status %d, want %d", tt.origin, tt.host, w.Code, tt.want)
			}
		})
	}
}
