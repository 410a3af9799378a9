package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// outputFilesHelp is the paragraph of --help on how files are written.
const outputFilesHelp = `Output files: a new path or a regular file is written through a temporary
file in its directory, renamed over it at the end (an existing file keeps
its permissions; an interrupted run leaves the old file, never a partial
one); a device, FIFO or socket (/dev/null), or an open file (/dev/stdout,
/dev/fd/N), is written through and stays what it is; a symbolic link is
followed and its target written (the link stays a link). A directory, a
name that ends in / (d/ names a directory, existing or not), a missing
directory, or one of the command's input files is refused (exit 2).`

// output is a file a command writes, named by the user on a flag (-o,
// --dot, --svg); "-" is standard output. Every file icgen writes goes
// through [prepareOutput] and [output.write]:
//
//   - a new path, or an existing regular file: the data goes to a
//     temporary file in the same directory, renamed over the path at the
//     end, so an interrupted or failed run leaves the old file (or none),
//     never a partial one; an existing file keeps its permissions;
//   - an existing device, FIFO or socket: opened and written through, never
//     replaced (icgen synth -o /dev/null stays a device); so is an open file
//     named through /dev/fd or /dev/stdout (appending: a file the shell
//     opened with >> keeps its start), and this process's own standard
//     output is written as "-" is;
//   - a symbolic link: resolved; its final target is written as above and
//     the link stays a link (a dangling link gets its target created);
//   - a directory, or a name that ends in / (given so, or a link's
//     target: it names a directory, existing or not): refused.
//
// A path that is one of the command's input files (compared as files, not
// as names) is refused. Problems with the user's path are bad input (exit
// 2) and name that path, never a temporary name.
type output struct {
	flag   string   // the flag that named the file, for messages
	path   string   // as the user gave it
	inputs []string // the command's input files, never to be overwritten
}

// prepareOutput checks, before a command does its work, that path can be
// written and is none of inputs (empty names are skipped). An empty path
// gives a nil output, which writes nothing.
func prepareOutput(flag, path string, inputs ...string) (*output, error) {
	if path == "" {
		return nil, nil
	}
	o := &output{flag: flag, path: path}
	for _, in := range inputs {
		if in != "" && in != "-" {
			o.inputs = append(o.inputs, in)
		}
	}
	if path == "-" {
		return o, nil
	}
	if _, _, err := o.resolve(); err != nil {
		return nil, err
	}
	return o, nil
}

// distinctOutputs refuses two outputs that go to the same place.
func distinctOutputs(outs ...*output) error {
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if a == nil || b == nil {
				continue
			}
			if a.path == "-" && b.path == "-" {
				return badInput("%s and %s both write to standard output: give one of them a file", a.flag, b.flag)
			}
			if a.path == "-" || b.path == "-" {
				continue
			}
			ta, fa, _ := a.resolve()
			tb, fb, _ := b.resolve()
			if ta == tb || fa != nil && fb != nil && os.SameFile(fa, fb) {
				return badInput("%s %s and %s %s are the same file: give them different paths", a.flag, a.path, b.flag, b.path)
			}
		}
	}
	return nil
}

// maxLinks bounds how many symbolic links a path may go through, as the
// kernel does (ELOOP).
const maxLinks = 40

// fdDir matches the directories of a process's open files, where /dev/fd
// and /dev/stdout lead: their entries are links to open files, not paths.
var fdDir = regexp.MustCompile(`^/proc/(self|thread-self|[0-9]+)(/task/[0-9]+)?/fd$`)

// resolve follows path's symbolic links to the file the data goes to. It
// returns that target and its info (nil when it does not exist yet), or a
// bad-input error saying why the path cannot be written. A link to an open
// file (under /proc/PID/fd) is returned as it is, with its link's info.
func (o *output) resolve() (string, fs.FileInfo, error) {
	target := o.path
	for links := 0; ; links++ {
		if strings.HasSuffix(target, "/") {
			// A name that ends in / names a directory: filepath.Dir and
			// Base would take d/ for d/d.
			return "", nil, o.fail(slashed(target))
		}
		// Resolve the directory first, so that a relative link is read
		// from where it really is.
		dir := filepath.Dir(target)
		rdir, err := filepath.EvalSymlinks(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", nil, o.fail(badPath("no such directory " + dir))
			}
			return "", nil, o.fail(err)
		}
		if di, err := os.Stat(rdir); err != nil {
			return "", nil, o.fail(err)
		} else if !di.IsDir() {
			return "", nil, o.fail(badPath(dir + " is not a directory"))
		}
		target = filepath.Join(rdir, filepath.Base(target))
		fi, err := os.Lstat(target)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 && fdDir.MatchString(rdir) {
			// /dev/stdout, /dev/fd/N: a file already open, which its
			// link does not name.
			if open, err := os.Stat(target); err == nil {
				if err := o.notInput(open); err != nil {
					return "", nil, err
				}
			}
			return target, fi, nil
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return target, nil, nil
		case err != nil:
			return "", nil, o.fail(err)
		case fi.IsDir():
			return "", nil, o.fail(badPath("is a directory"))
		case fi.Mode()&fs.ModeSymlink == 0:
			if err := o.notInput(fi); err != nil {
				return "", nil, err
			}
			return target, fi, nil
		}
		if links == maxLinks {
			return "", nil, o.fail(syscall.ELOOP)
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", nil, o.fail(err)
		}
		if !filepath.IsAbs(link) {
			slash := strings.HasSuffix(link, "/") // Join would drop it
			link = filepath.Join(filepath.Dir(target), link)
			if slash {
				link += "/"
			}
		}
		target = link
	}
}

// slashed is why a path that ends in / (given so, or a link's target)
// cannot be written: it names a directory, existing or not, and no file.
func slashed(path string) error {
	fi, err := os.Stat(filepath.Clean(path))
	switch {
	case err == nil && fi.IsDir():
		return badPath("is a directory")
	case err == nil:
		return syscall.ENOTDIR
	}
	return badPath("names a directory (it ends in /), not a file")
}

// notInput refuses a target that is one of the command's input files.
func (o *output) notInput(fi fs.FileInfo) error {
	for _, in := range o.inputs {
		if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
			return badInput("%s %s is the input file %s: refusing to overwrite it", o.flag, o.path, in)
		}
	}
	return nil
}

// write writes data to the output (nothing when o is nil).
func (o *output) write(data []byte, stdout io.Writer) error {
	if o == nil {
		return nil
	}
	if o.path == "-" {
		if _, err := stdout.Write(data); err != nil {
			return &exitError{code: ExitInternal, err: fmt.Errorf("%s: writing to standard output: %v", o.flag, err)}
		}
		return nil
	}
	target, fi, err := o.resolve()
	if err != nil {
		return err
	}
	switch {
	case fi == nil:
	case fi.Mode()&fs.ModeSymlink != 0: // an open file: /dev/stdout, /dev/fd/N
		if target == filepath.Join("/proc", strconv.Itoa(os.Getpid()), "fd", "1") && stdout != nil {
			// This process's standard output: write where the rest of
			// the output goes, at its offset.
			return (&output{flag: o.flag, path: "-"}).write(data, stdout)
		}
		return o.writeThrough(target, os.O_APPEND, data)
	case !fi.Mode().IsRegular():
		return o.writeThrough(target, 0, data)
	}
	perm := fs.FileMode(0o644)
	if fi != nil {
		perm = fi.Mode().Perm()
	}
	return o.writeAtomic(target, perm, data)
}

// writeThrough writes to an existing device, FIFO or socket, or an open
// file (with flag os.O_APPEND, so a file the shell opened with >> keeps
// what it had): no temporary file, no rename, no truncation.
func (o *output) writeThrough(target string, flag int, data []byte) error {
	f, err := os.OpenFile(target, os.O_WRONLY|flag, 0)
	if err != nil {
		return o.fail(err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return o.fail(err)
	}
	return nil
}

// writeAtomic writes data to a temporary file next to target and renames
// it over target, so target is either the old file or the whole new one.
func (o *output) writeAtomic(target string, perm fs.FileMode, data []byte) error {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return o.fail(fmt.Errorf("cannot create a file in %s: %w", dir, errnoOf(err)))
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return o.fail(errnoOf(err))
	}
	if err := tmp.Chmod(perm); err != nil {
		return o.fail(errnoOf(err))
	}
	if err := tmp.Sync(); err != nil {
		return o.fail(errnoOf(err))
	}
	if err := tmp.Close(); err != nil {
		return o.fail(errnoOf(err))
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return o.fail(errnoOf(err))
	}
	done = true
	return nil
}

// errnoOf strips the file names off an error (a temporary file's among
// them), keeping what went wrong.
func errnoOf(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// badPath is a reason a path cannot be written that no system error
// names.
type badPath string

func (b badPath) Error() string { return string(b) }

// pathErrnos are the system errors that say the user's path is at fault.
var pathErrnos = []error{fs.ErrNotExist, fs.ErrPermission, fs.ErrExist, syscall.EROFS, syscall.ENOTDIR, syscall.EISDIR,
	syscall.ENXIO, syscall.ELOOP, syscall.ENAMETOOLONG, syscall.ENOSPC, syscall.EDQUOT, syscall.ETXTBSY}

// fail is the error for a path that cannot be written: bad input when the
// path is at fault (missing, not permitted, read-only, full, not a file
// that takes data), else an internal failure. It names the user's path,
// never a temporary file's.
func (o *output) fail(err error) error {
	code := ExitInternal
	var bp badPath
	if errors.As(err, &bp) {
		code = ExitBadInput
	}
	for _, e := range pathErrnos {
		if errors.Is(err, e) {
			code = ExitBadInput
		}
	}
	return &exitError{code: code, err: fmt.Errorf("%s %s: %v", o.flag, o.path, errnoOf(err))}
}
