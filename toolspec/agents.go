package toolspec

// MaxAgentNesting is how deep agents may list agents (docs/language.md §2.7,
// "Agents as tools"): an agent that lists none is one level, one that
// lists such an agent two, and so on. It is written once, here, below
// both its readers: the checker reports a deeper declaration
// (agent-nesting) and the runtime refuses to bind or run one, so a
// generated agent or one built by hand is held to the same limit.
const MaxAgentNesting = 5
