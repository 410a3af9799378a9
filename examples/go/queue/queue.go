// Package queue is a bounded FIFO queue on a ring buffer.
package queue

import "sync"

const capacity = 4

// Queue holds at most capacity ints.
type Queue struct {
	mu    sync.Mutex
	buf   [capacity]int
	head  int // index of the oldest element
	count int
}

// Push appends v and reports whether there was room.
func (q *Queue) Push(v int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.count == capacity {
		return false
	}
	q.buf[(q.head+q.count)%capacity] = v
	q.count++
	return true
}

// Pop removes the oldest element; ok is false when the queue is empty.
func (q *Queue) Pop() (v int, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.count == 0 {
		return 0, false
	}
	v = q.buf[q.head]
	q.head = (q.head + 1) % capacity
	q.count--
	return v, true
}

// Len returns the number of elements.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.count
}
