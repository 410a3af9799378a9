package gofront

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/icgen/icgen/lang"
)

// IsGo reports whether path names Go input rather than a .blk file: a
// directory, a pattern ending in "/..." (or "..."), or a .go file.
func IsGo(path string) bool {
	if path == "..." || strings.HasSuffix(path, "/...") || strings.HasSuffix(path, ".go") {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Load reads the Go package (or packages) that pattern names: a
// directory, a directory followed by "/..." (every directory below it
// holding Go files, testdata and hidden directories skipped), or one .go
// file. It parses and type-checks each package, finds its atomic blocks
// and lowers them to one program. Problems of the input (a file that does
// not parse or type-check, a pattern that matches nothing) are returned as
// an ErrorList; error means the tool failed (an unreadable directory).
// With errors, the Package returned, when not nil, holds only the files
// read (Files), for excerpts.
func Load(pattern string) (*Package, lang.ErrorList, error) {
	return load(pattern, false)
}

// load is Load; every function with a body is a block when allAtomic
// is set (a stress test of the lowering on any code).
func load(pattern string, allAtomic bool) (*Package, lang.ErrorList, error) {
	dirs, files, err := expand(pattern)
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	var pkgs []*typedPkg
	var errs lang.ErrorList
	for _, d := range dirs {
		names := files[d]
		if names == nil {
			bp, err := build.ImportDir(d, 0)
			var noGo *build.NoGoError
			if errors.As(err, &noGo) {
				continue
			}
			if err != nil {
				errs = append(errs, &lang.Error{Pos: lang.Pos{File: d}, Msg: err.Error()})
				continue
			}
			for _, n := range bp.GoFiles {
				names = append(names, filepath.Join(d, n))
			}
		}
		tp, perrs := check(fset, names)
		errs = append(errs, perrs...)
		if tp != nil {
			pkgs = append(pkgs, tp)
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs, nil
	}
	if len(pkgs) == 0 {
		return nil, lang.ErrorList{{Pos: lang.Pos{File: pattern}, Msg: "no Go files"}}, nil
	}
	p, errs := build1(pattern, fset, pkgs, allAtomic)
	if len(errs) > 0 {
		if p != nil {
			// The files, for excerpts of the errors (in declarations).
			return &Package{Pattern: pattern, Name: p.Name, Files: p.Files}, errs, nil
		}
		return nil, errs, nil
	}
	return p, nil, nil
}

// expand turns a pattern into directories (sorted) and, for a single .go
// file, the file itself.
func expand(pattern string) ([]string, map[string][]string, error) {
	files := map[string][]string{}
	if strings.HasSuffix(pattern, ".go") {
		if _, err := os.Stat(pattern); err != nil {
			return nil, nil, unwrap(err)
		}
		d := filepath.Dir(pattern)
		files[d] = []string{pattern}
		return []string{d}, files, nil
	}
	root, rec := pattern, false
	if pattern == "..." || strings.HasSuffix(pattern, "/...") {
		root, rec = strings.TrimSuffix(strings.TrimSuffix(pattern, "..."), "/"), true
		if root == "" {
			root = "."
		}
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, nil, unwrap(err)
	}
	if !fi.IsDir() {
		return nil, nil, fmt.Errorf("%s: not a directory", root)
	}
	if !rec {
		return []string{root}, files, nil
	}
	var dirs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		dirs = append(dirs, path)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(dirs)
	return dirs, files, nil
}

func unwrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

// typedPkg is a parsed and type-checked package.
type typedPkg struct {
	pkg   *types.Package
	info  *types.Info
	files []*ast.File
	src   map[string][]byte
}

// check parses and type-checks the files of one package. Imports are
// resolved from compiled export data, or, when that is not available,
// from the standard library's source.
func check(fset *token.FileSet, names []string) (*typedPkg, lang.ErrorList) {
	tp := &typedPkg{src: map[string][]byte{}}
	var errs lang.ErrorList
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			errs = append(errs, &lang.Error{Pos: lang.Pos{File: n}, Msg: unwrap(err).Error()})
			continue
		}
		tp.src[n] = src
		f, err := parser.ParseFile(fset, n, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			errs = append(errs, goErrors(fset, err)...)
			continue
		}
		tp.files = append(tp.files, f)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	tp.info, tp.pkg, errs = typeCheck(fset, tp.files)
	if len(errs) > 0 {
		return nil, errs
	}
	return tp, nil
}

// typeCheck type-checks files, reporting at most 10 type errors.
func typeCheck(fset *token.FileSet, files []*ast.File) (*types.Info, *types.Package, lang.ErrorList) {
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits:  map[ast.Node]types.Object{},
	}
	var errs lang.ErrorList
	conf := types.Config{
		Importer: sharedImporter(),
		Error: func(err error) {
			if len(errs) < 10 {
				errs = append(errs, goErrors(fset, err)...)
			}
		},
	}
	path := "main"
	if len(files) > 0 {
		path = files[0].Name.Name
	}
	pkg, _ := conf.Check(path, fset, files, info)
	return info, pkg, errs
}

// goErrors turns parser and type checker errors into located errors.
func goErrors(fset *token.FileSet, err error) lang.ErrorList {
	var out lang.ErrorList
	switch e := err.(type) {
	case types.Error:
		out = append(out, &lang.Error{Pos: position(fset, e.Pos), Msg: e.Msg})
	case scanner.ErrorList:
		for _, x := range e {
			out = append(out, &lang.Error{Pos: lang.Pos{File: x.Pos.Filename, Offset: x.Pos.Offset, Line: x.Pos.Line, Col: x.Pos.Column}, Msg: x.Msg})
		}
	case *scanner.Error:
		out = append(out, &lang.Error{Pos: lang.Pos{File: e.Pos.Filename, Offset: e.Pos.Offset, Line: e.Pos.Line, Col: e.Pos.Column}, Msg: e.Msg})
	default:
		out = append(out, &lang.Error{Msg: err.Error()})
	}
	return out
}

// position converts a go/token position.
func position(fset *token.FileSet, p token.Pos) lang.Pos {
	if !p.IsValid() {
		return lang.Pos{}
	}
	q := fset.Position(p)
	return lang.Pos{File: q.Filename, Offset: q.Offset, Line: q.Line, Col: q.Column}
}

var (
	impOnce sync.Once
	imp     types.Importer
)

// sharedImporter is one importer for the process: packages imported once
// (sync, say) are not read again. It tries compiled export data first
// (fast), then the package's source.
func sharedImporter() types.Importer {
	impOnce.Do(func() {
		imp = &fallbackImporter{
			first:  importer.ForCompiler(token.NewFileSet(), "gc", nil),
			second: importer.ForCompiler(token.NewFileSet(), "source", nil),
			done:   map[string]*types.Package{},
		}
	})
	return imp
}

type fallbackImporter struct {
	mu            sync.Mutex
	first, second types.Importer
	done          map[string]*types.Package
}

func (f *fallbackImporter) Import(path string) (*types.Package, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.done[path]; ok {
		return p, nil
	}
	p, err := f.first.Import(path)
	if err != nil {
		p, err = f.second.Import(path)
	}
	if err != nil {
		return nil, err
	}
	f.done[path] = p
	return p, nil
}
