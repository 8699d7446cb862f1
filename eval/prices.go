package eval

import (
	"fmt"
	"math"

	"github.com/gramc-dev/gramc/runtime"
)

// Price is a model's price in USD per million tokens. gramc has no
// built-in price list: one would go stale.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
}

// Prices are prices by model (`Provider/model-name`, as an agent's
// model is written).
type Prices map[string]Price

// Cost is what usage costs on model (0 when model has no price).
func (p Prices) Cost(model string, u runtime.Usage) float64 {
	price, ok := p[model]
	if !ok {
		return 0
	}
	return (float64(u.PromptTokens)*price.Input + float64(u.CompletionTokens)*price.Output) / 1e6
}

// ParsePrices reads a prices file: {"Provider/model": {"input": USD,
// "output": USD}, ...}, USD per million tokens.
func ParsePrices(data []byte) (Prices, error) {
	var p Prices
	if err := decodeFile(data, "a prices file", `prices ({"Provider/model": {"input": USD, "output": USD}}, per million tokens)`, &p); err != nil {
		return nil, err
	}
	for model, price := range p {
		if bad(price.Input) || bad(price.Output) {
			return nil, fmt.Errorf("the price of %s: want numbers of USD per million tokens, 0 or more", model)
		}
	}
	return p, nil
}

func bad(x float64) bool { return x < 0 || math.IsNaN(x) || math.IsInf(x, 0) }
