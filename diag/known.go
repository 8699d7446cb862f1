package diag

// KnownCodes are the codes a gramc:ignore comment or --disable may name:
// every registered code, in the registry's order.
func KnownCodes() []Code {
	out := make([]Code, 0, len(registry))
	for _, c := range registry {
		out = append(out, c.Code)
	}
	return out
}
