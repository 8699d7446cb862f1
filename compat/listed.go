package compat

import (
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/check"
)

// Agents as tools (LANGUAGE.md §2.5): a change to an agent that other
// agents list is a change of the tool their models see. Each change of
// such an agent names the agents that list it (in either version), so
// a reader knows whose tool broke, not only which agent changed.

// listers maps each agent's name to the names of the agents that list
// it in any of pkgs' versions, sorted.
func listers(versions ...[]*check.Package) map[string][]string {
	seen := map[string]map[string]bool{}
	for _, pkgs := range versions {
		for _, p := range pkgs {
			if p == nil {
				continue
			}
			for _, a := range p.Agents {
				for _, b := range a.Agents {
					if seen[b.Name] == nil {
						seen[b.Name] = map[string]bool{}
					}
					seen[b.Name][a.Name] = true
				}
			}
		}
	}
	out := make(map[string][]string, len(seen))
	for name, by := range seen {
		for caller := range by {
			out[name] = append(out[name], caller)
		}
		sort.Strings(out[name])
	}
	return out
}

// asListedTool says, in each of changes (of agent name), that the
// agent is a tool of the agents in by: the change reaches their models.
func asListedTool(changes []Change, name string, by []string) {
	if len(by) == 0 {
		return
	}
	note := " (agent " + name + " is a tool of " + by[0] + ": its model sees the change)"
	if len(by) > 1 {
		note = " (agent " + name + " is a tool of " + strings.Join(by[:len(by)-1], ", ") + " and " + by[len(by)-1] + ": their models see the change)"
	}
	for i := range changes {
		changes[i].ListedBy = by
		changes[i].Message += note
	}
}
