// Package bank is an account whose operations hold its mutex: the
// audit shows which pairs of calls commute, and where.
package bank

import "sync"

// Account is a bank account with an overdraft limit.
type Account struct {
	mu      sync.Mutex
	balance int64
	limit   int64 // how far below zero the balance may go
	frozen  bool
}

// Deposit adds amt to the balance.
func (a *Account) Deposit(amt int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if amt <= 0 {
		panic("bank: deposit of a non-positive amount")
	}
	a.balance += amt
}

// A deposit and a withdrawal that the balance covers commute: icgen
// check proves the declaration.
//icgen:commute Deposit Withdraw when amt > 0 && a.balance+a.limit >= amt2

// Withdraw takes amt from the balance if the account allows it, and
// reports whether it did.
func (a *Account) Withdraw(amt int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.frozen || a.balance-amt < -a.limit {
		return false
	}
	a.balance -= amt
	return true
}

// Balance returns the balance.
func (a *Account) Balance() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Freeze stops withdrawals.
func (a *Account) Freeze() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.frozen = true
}

// SetLimit changes the overdraft limit.
func (a *Account) SetLimit(limit int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.limit = limit
}
