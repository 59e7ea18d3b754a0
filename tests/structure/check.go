package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The limits (STYLE.md: "about 300" and "about 60").
const (
	maxFileLines = 300
	maxFuncLines = 60
)

// Check loads the packages of patterns under dir and returns one line per
// broken rule.
func Check(dir string, patterns ...string) ([]string, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: dir}, patterns...)
	if err != nil {
		return nil, err
	}
	var found []string
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		found = append(found, cycles(p)...)
		found = append(found, lengths(p)...)
	}
	return found, nil
}

// source reports whether path is a hand-written, non-test Go file (cgo
// writes files of its own into a package).
func source(path string) bool {
	return strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go")
}

// cycles names the files of p that use each other's definitions.
func cycles(p *packages.Package) []string {
	uses := map[string]map[string][]string{} // file -> file -> names
	for id, obj := range p.TypesInfo.Uses {
		if obj == nil || obj.Pkg() != p.Types || !obj.Pos().IsValid() || !shared(p, obj) {
			continue
		}
		from, to := p.Fset.Position(id.Pos()).Filename, p.Fset.Position(obj.Pos()).Filename
		if from == to || !source(from) || !source(to) {
			continue
		}
		from, to = filepath.Base(from), filepath.Base(to)
		if uses[from] == nil {
			uses[from] = map[string][]string{}
		}
		uses[from][to] = append(uses[from][to], obj.Name())
	}
	var found []string
	for _, c := range components(uses) {
		if len(c) < 2 {
			continue
		}
		line := fmt.Sprintf("%s: files that use each other: %s", p.PkgPath, strings.Join(c, ", "))
		for _, a := range c {
			for _, b := range c {
				if names := uses[a][b]; names != nil {
					line += fmt.Sprintf("\n    %s -> %s: %s", a, b, strings.Join(distinct(names), ", "))
				}
			}
		}
		found = append(found, line)
	}
	return found
}

// shared reports whether obj is visible across the files of p: declared
// at package level, or a method or a field.
func shared(p *packages.Package, obj types.Object) bool {
	if obj.Parent() == p.Types.Scope() {
		return true
	}
	switch o := obj.(type) {
	case *types.Func:
		return o.Type().(*types.Signature).Recv() != nil
	case *types.Var:
		return o.IsField()
	}
	return false
}

// lengths names the files and functions of p over the limits.
func lengths(p *packages.Package) []string {
	var found []string
	for _, f := range p.Syntax {
		tf := p.Fset.File(f.Pos())
		name := tf.Name()
		if !source(name) {
			continue
		}
		if n := tf.LineCount(); n > maxFileLines {
			found = append(found, fmt.Sprintf("%s: %d lines (at most %d)", rel(name), n, maxFileLines))
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := p.Fset.Position(fn.End()).Line - p.Fset.Position(fn.Pos()).Line + 1
			if n > maxFuncLines {
				found = append(found, fmt.Sprintf("%s: func %s is %d lines (at most %d)", rel(name), fn.Name.Name, n, maxFuncLines))
			}
		}
	}
	return found
}

func rel(path string) string {
	return filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))
}

func distinct(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// components are the strongly connected components of g (Tarjan), each
// sorted, in a stable order.
func components(g map[string]map[string][]string) [][]string {
	var nodes []string
	for v := range g {
		nodes = append(nodes, v)
	}
	sort.Strings(nodes)
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var out [][]string
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		on[v] = true
		var next []string
		for w := range g[v] {
			next = append(next, w)
		}
		sort.Strings(next)
		for _, w := range next {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var c []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[w] = false
			c = append(c, w)
			if w == v {
				break
			}
		}
		sort.Strings(c)
		out = append(out, c)
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	return out
}
