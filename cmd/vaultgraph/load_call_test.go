//go:build load

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// toolCaller makes the load clients' tools/call requests as mcp-go's
// client puts them on the wire (the same JSON-RPC request, the _meta
// fields and headers the negotiated protocol version asks for, built with
// mcp-go's own helpers; the session header when the version has
// sessions), and decodes of the answer only what the load checks: its
// JSON-RPC error, its text and isError. mcp-go's client decoded every
// answer twice into generic maps, about half of the clients' CPU, which
// on two cores the server's requests/s paid for.
type toolCaller struct {
	url, version, session string
	meta                  map[string]any
	http                  *http.Client
	id                    int64
}

// newToolCaller is the caller for a client initialized with info, whose
// server answered init over tr.
func newToolCaller(url string, tr *transport.StreamableHTTP, info mcpgo.Implementation, init *mcpgo.InitializeResult) *toolCaller {
	return &toolCaller{
		url: url, version: init.ProtocolVersion, session: tr.GetSessionId(), http: &http.Client{},
		meta: map[string]any{
			mcpgo.MetaKeyProtocolVersion:    init.ProtocolVersion,
			mcpgo.MetaKeyClientCapabilities: mcpgo.ClientCapabilities{},
			mcpgo.MetaKeyClientInfo:         info,
		},
	}
}

// rpcAnswer is what the load reads of a JSON-RPC answer to tools/call.
type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call calls tool with args and returns its text (when it answered one
// text content) and isError; err is a transport or JSON-RPC error.
func (c *toolCaller) call(ctx context.Context, tool string, args map[string]any) (text string, isError bool, err error) {
	params, err := json.Marshal(map[string]any{"name": tool, "arguments": args, "_meta": c.meta})
	if err != nil {
		return "", false, err
	}
	c.id++
	body, err := json.Marshal(map[string]any{"jsonrpc": mcpgo.JSONRPC_VERSION, "id": c.id, "method": mcpgo.MethodToolsCall, "params": json.RawMessage(params)})
	if err != nil {
		return "", false, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return "", false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(transport.HeaderKeyProtocolVersion, c.version)
	if c.session != "" {
		req.Header.Set(transport.HeaderKeySessionID, c.session)
	}
	for k, v := range mcpgo.StandardHeaders(c.version, mcpgo.MethodToolsCall, params) {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return "", false, fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	a, err := c.answer(resp)
	if err != nil {
		return "", false, err
	}
	if a.Error != nil {
		return "", false, fmt.Errorf("JSON-RPC error %d: %s", a.Error.Code, a.Error.Message)
	}
	if a.Result == nil {
		return "", false, errors.New("answer without result or error")
	}
	if len(a.Result.Content) == 1 && a.Result.Content[0].Type == "text" {
		text = a.Result.Content[0].Text
	}
	return text, a.Result.IsError, nil
}

// answer reads the answer to request c.id from a JSON body or from the
// events of a stream.
func (c *toolCaller) answer(resp *http.Response) (*rpcAnswer, error) {
	want := fmt.Sprint(c.id)
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if media != "text/event-stream" {
		var a rpcAnswer
		if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
			return nil, fmt.Errorf("answer: %w", err)
		}
		if string(a.ID) != want {
			return nil, fmt.Errorf("answer to request %s, want %s", a.ID, want)
		}
		return &a, nil
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, maxRequestBytes)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		var a rpcAnswer
		if json.Unmarshal([]byte(strings.TrimSpace(data)), &a) == nil && string(a.ID) == want {
			return &a, nil
		}
	}
	return nil, fmt.Errorf("stream ended without the answer to request %s: %v", want, sc.Err())
}
