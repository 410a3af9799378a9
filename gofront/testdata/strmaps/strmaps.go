// Package strmaps holds strings as the front end models them, for the
// oracle: opaque values that are assigned, compared with == and != (with
// constants too) and used as map keys.
package strmaps

import "sync"

const admin = "admin"

type account struct {
	balance int64
	frozen  bool
}

// Bank holds accounts by name and the name of its owner.
type Bank struct {
	mu       sync.Mutex
	accounts map[string]account
	owner    string
	last     string
}

var (
	tagsMu sync.Mutex
	tags   map[string]string
)

// Deposit adds amt to who's account, unless it is frozen.
func (b *Bank) Deposit(who string, amt int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.accounts[who]
	if a.frozen {
		return false
	}
	a.balance += amt
	b.accounts[who] = a
	b.last = who
	return true
}

// Freeze freezes who's account, if the caller is the owner or the admin.
func (b *Bank) Freeze(caller, who string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if caller != b.owner && caller != admin {
		return false
	}
	a, ok := b.accounts[who]
	if !ok {
		return false
	}
	a.frozen = true
	b.accounts[who] = a
	return true
}

// Close removes who's account and returns its balance.
func (b *Bank) Close(who string) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.accounts[who]
	delete(b.accounts, who)
	if b.last == who {
		b.last = ""
	}
	return a.balance
}

// Own makes who the owner, if there is none.
func (b *Bank) Own(who string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.owner == "" {
		b.owner = who
	}
	return b.owner
}

// Tag tags k with v and returns the old tag ("" when there was none).
func Tag(k, v string) string {
	tagsMu.Lock()
	defer tagsMu.Unlock()
	old := tags[k]
	if v == "none" {
		delete(tags, k)
	} else {
		tags[k] = v
	}
	return old
}
