package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// progress shows how far a long command is, on stderr. On a terminal it
// redraws one line in place (a carriage return, the line cut to the
// terminal's width, the rest of the line cleared) and clears it when the
// command is done. Forced where stderr is not a terminal (--progress), it
// prints plain lines instead, with no carriage return or escape code, at
// most one per plainEvery: a log stays readable.
//
// A nil *progress shows nothing, so callers need not check. Its methods
// may be called from any goroutine.
type progress struct {
	w     io.Writer
	tty   bool
	width int              // the terminal's columns (0: unknown)
	now   func() time.Time // the clock that throttles the lines
	mu    sync.Mutex
	last  time.Time // when the last live line was written
	drawn bool      // a live line is on the terminal
	shut  bool      // done was called
}

// Throttles of the live line: a terminal redraw at most every ttyEvery, a
// plain line at most every plainEvery.
const (
	ttyEvery   = 100 * time.Millisecond
	plainEvery = time.Second
)

// newProgress returns the progress printer of a command writing to
// e.stderr: redrawn in place when stderr is a terminal and auto allows it
// (or force asks), plain lines when force asks and stderr is not a
// terminal, nil (nothing shown) otherwise.
func (e *env) newProgress(auto, force bool) *progress {
	tty := isTerminal(e.stderr)
	if !force && !(tty && auto) {
		return nil
	}
	p := &progress{w: e.stderr, tty: tty, now: e.now}
	if p.now == nil {
		p.now = time.Now
	}
	if f, ok := e.stderr.(*os.File); ok && tty {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			p.width = w
		}
	}
	return p
}

// update shows line as the live status, unless one was shown too recently.
func (p *progress) update(line string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	every := plainEvery
	if p.tty {
		every = ttyEvery
	}
	if p.shut || !p.last.IsZero() && now.Sub(p.last) < every {
		return
	}
	p.last = now
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	if p.width > 1 && utf8.RuneCountInString(line) >= p.width {
		// A line that wraps cannot be redrawn in place.
		line = string([]rune(line)[:p.width-1])
	}
	fmt.Fprintf(p.w, "\r%s\033[K", line)
	p.drawn = true
}

// note prints line for good (a finished part of the work): on a terminal
// in place of the live line, which the next update draws again.
func (p *progress) note(line string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shut {
		return
	}
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
	fmt.Fprintln(p.w, line)
	if p.tty {
		p.last = time.Time{} // the live line comes back at once
	}
}

// clear clears the live line from the terminal, before other output; the
// next update draws it again.
func (p *progress) clear() { p.end(false) }

// done clears the live line; nothing is shown after it (a computation an
// interrupt abandoned may still report).
func (p *progress) done() { p.end(true) }

func (p *progress) end(shut bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
	p.last = time.Time{}
	p.shut = p.shut || shut
}

// rate is n events over d, per second.
func rate(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// span prints a duration for a progress line, to the second: 42s, 3m07s,
// 5h02m, 3d04h.
func span(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	case s < 48*3600:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	}
	return fmt.Sprintf("%dd%02dh", s/86400, s%86400/3600)
}
