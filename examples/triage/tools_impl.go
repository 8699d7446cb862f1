// Started from `gramc gen --stubs`; this file is ours: gramc never
// overwrites it.

package main

import (
	"context"
	"strings"
)

// Customers implements Tools from a fixed list.
type Customers struct{}

var _ Tools = Customers{}

// LookupCustomer implements the gram tool "lookupCustomer".
func (Customers) LookupCustomer(ctx context.Context, args LookupCustomerArgs) (LookupCustomerResult, error) {
	if strings.HasSuffix(args.Email, "@example.com") {
		return "gold", nil
	}
	return "free", nil
}
