package runtimetest

import (
	"flag"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gramc-dev/gramc/runtime"
)

// Chance is a fake model for evals: a model that does its job with a
// known probability, so that an eval's statistics can be checked against
// the truth. Each run — a conversation's first request, one with no
// assistant message yet — succeeds with its model's probability in
// Success (absent: 1), drawn from Seed: the i-th run of a model
// succeeds when a hash of (Seed, model, i) falls below the probability,
// so the number of successes of each model is the same for a seed
// whatever order concurrent runs come in. A run that succeeds is
// answered by Next (Echo when nil) to the end; one that fails gets a
// text answer that calls no tool ("I cannot help with that.").
//
// Status makes a model answer every request with that HTTP status (a
// 500 forever: a provider that is down); RetryAfter makes a model answer
// its first request with a 429 and Retry-After of that many seconds,
// and records when the retry came.
type Chance struct {
	Seed       uint64
	Success    map[string]float64
	Status     map[string]int
	RetryAfter map[string]int
	Next       Policy

	mu      sync.Mutex
	runs    map[string]int       // runs begun, by model
	limited map[string]time.Time // when a model's 429 was sent
	waited  map[string]time.Duration
}

// Policy is c as a fake's Policy.
func (c *Chance) Policy() Policy { return c.reply }

// Waited is how long after its 429 a model's next request came (0 when
// none has).
func (c *Chance) Waited(model string) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waited[model]
}

// FailingRun is the answer of a run that does not do its job.
const FailingRun = "I cannot help with that."

func (c *Chance) reply(t *Turn, n int) Reply {
	if status, ok := c.Status[t.Model]; ok {
		return Reply{Status: status, Message: "fake: model " + t.Model + " is down"}
	}
	if r, limited := c.rateLimit(t.Model); limited {
		return r
	}
	if isFirstTurn(t) && !c.succeeds(t.Model) {
		return Reply{Text: FailingRun}
	}
	if c.Next != nil {
		return c.Next(t, n)
	}
	return Echo(t, n)
}

// rateLimit answers a model's first request with a 429 when RetryAfter
// says so, and notes how long the next one waited.
func (c *Chance) rateLimit(model string) (Reply, bool) {
	secs, ok := c.RetryAfter[model]
	if !ok {
		return Reply{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.limited == nil {
		c.limited, c.waited = map[string]time.Time{}, map[string]time.Duration{}
	}
	sent, done := c.limited[model]
	if !done {
		c.limited[model] = time.Now()
		return Reply{Status: http.StatusTooManyRequests, Message: "fake: slow down", Header: map[string]string{"Retry-After": strconv.Itoa(secs)}}, true
	}
	if _, noted := c.waited[model]; !noted {
		c.waited[model] = time.Since(sent)
	}
	return Reply{}, false
}

// succeeds draws whether the next run of model succeeds.
func (c *Chance) succeeds(model string) bool {
	p, ok := c.Success[model]
	if !ok {
		return true
	}
	c.mu.Lock()
	if c.runs == nil {
		c.runs = map[string]int{}
	}
	i := c.runs[model]
	c.runs[model]++
	c.mu.Unlock()
	return uniform(c.Seed, model, i) < p
}

// isFirstTurn reports whether t begins a run: no assistant message yet.
func isFirstTurn(t *Turn) bool {
	for _, m := range t.Messages {
		if m.Role == runtime.RoleAssistant {
			return false
		}
	}
	return true
}

// uniform is a number in [0, 1) from (seed, model, i): SplitMix64
// (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014) of their mix.
func uniform(seed uint64, model string, i int) float64 {
	h := fnv.New64a()
	h.Write([]byte(model))
	x := seed ^ h.Sum64() + uint64(i)*0x9e3779b97f4a7c15
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// Gauge is an http.Handler that counts the requests in flight through
// it and keeps the most there ever were.
type Gauge struct {
	Handler  http.Handler
	in, most atomic.Int64
}

// ServeHTTP implements http.Handler.
func (g *Gauge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := g.in.Add(1)
	defer g.in.Add(-1)
	for {
		m := g.most.Load()
		if n <= m || g.most.CompareAndSwap(m, n) {
			break
		}
	}
	g.Handler.ServeHTTP(w, r)
}

// Most is the most requests there were in flight at once.
func (g *Gauge) Most() int { return int(g.most.Load()) }

// flags adds the fakeopenai flags that set c: -seed N, -success
// MODEL=P and -status MODEL=CODE (each repeatable).
func (c *Chance) flags(fs *flag.FlagSet) {
	fs.Func("seed", "seed of the -success draws", func(s string) error {
		v, err := strconv.ParseUint(s, 10, 64)
		c.Seed = v
		return err
	})
	fs.Func("success", "MODEL=P: a run of MODEL succeeds with probability P (else answers without a tool call); repeatable", func(s string) error {
		model, v, err := modelValue(s)
		if err == nil {
			p, perr := strconv.ParseFloat(v, 64)
			if perr != nil || p < 0 || p > 1 {
				return fmt.Errorf("%s: want a probability in [0, 1]", s)
			}
			c.Success = setKey(c.Success, model, p)
		}
		return err
	})
	fs.Func("status", "MODEL=CODE: answer every request of MODEL with HTTP status CODE; repeatable", func(s string) error {
		model, v, err := modelValue(s)
		if err == nil {
			code, cerr := strconv.Atoi(v)
			if cerr != nil || code < 400 || code > 599 {
				return fmt.Errorf("%s: want an HTTP error status", s)
			}
			c.Status = setKey(c.Status, model, code)
		}
		return err
	})
}

// active reports whether a flag set c.
func (c *Chance) active() bool { return len(c.Success)+len(c.Status) > 0 }

func modelValue(s string) (string, string, error) {
	model, v, ok := strings.Cut(s, "=")
	if !ok || model == "" {
		return "", "", fmt.Errorf("%q: want MODEL=VALUE", s)
	}
	return model, v, nil
}

func setKey[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}
