package runtime

import (
	"fmt"
	"sort"
	"sync"
)

// ToolLibrary maps tool names to implementations. It is safe for
// concurrent use: lookups may run while tools are registered or replaced.
type ToolLibrary struct {
	mu    sync.RWMutex
	tools map[string]Tool
}

// NewToolLibrary returns a library holding tools; a later tool with the
// same name replaces an earlier one.
func NewToolLibrary(tools ...Tool) *ToolLibrary {
	lib := &ToolLibrary{tools: make(map[string]Tool, len(tools))}
	for _, t := range tools {
		lib.tools[t.Spec.Name] = t
	}
	return lib
}

// Register adds a tool; it is an error if the name is empty, the tool has
// no implementation, or a tool of that name is already registered.
func (l *ToolLibrary) Register(t Tool) error {
	if t.Spec.Name == "" {
		return fmt.Errorf("register tool: empty name")
	}
	if t.Func == nil {
		return fmt.Errorf("register tool %s: no implementation (nil Func)", t.Spec.Name)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tools == nil {
		l.tools = make(map[string]Tool)
	}
	if _, dup := l.tools[t.Spec.Name]; dup {
		return fmt.Errorf("register tool %s: already registered (use Replace to swap implementations)", t.Spec.Name)
	}
	l.tools[t.Spec.Name] = t
	return nil
}

// Replace adds a tool, replacing any tool of the same name.
func (l *ToolLibrary) Replace(t Tool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tools == nil {
		l.tools = make(map[string]Tool)
	}
	l.tools[t.Spec.Name] = t
}

// Lookup returns the tool registered under name.
func (l *ToolLibrary) Lookup(name string) (Tool, bool) {
	if l == nil {
		return Tool{}, false
	}
	l.mu.RLock()
	t, ok := l.tools[name]
	l.mu.RUnlock()
	return t, ok
}

// Names returns the registered tool names, sorted.
func (l *ToolLibrary) Names() []string {
	if l == nil {
		return nil
	}
	l.mu.RLock()
	names := make([]string, 0, len(l.tools))
	for n := range l.tools {
		names = append(names, n)
	}
	l.mu.RUnlock()
	sort.Strings(names)
	return names
}
