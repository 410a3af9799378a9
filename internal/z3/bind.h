// C side of the binding: small helpers that fold a Z3 call, its error check
// and the reference count of its result into one cgo call. Every Go file of
// the package that calls C includes this header; all helpers are static
// inline so each file gets its own copy.

#ifndef ICGEN_Z3_BIND_H
#define ICGEN_Z3_BIND_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>
#include <z3_version.h>

#if !defined(Z3_MAJOR_VERSION) || !defined(Z3_MINOR_VERSION)
#error "z3_version.h does not define Z3_MAJOR_VERSION/Z3_MINOR_VERSION"
#endif
#if Z3_MAJOR_VERSION < 4 || (Z3_MAJOR_VERSION == 4 && Z3_MINOR_VERSION < 8)
#error "internal/z3 needs Z3 4.8 or later (apt-get install libz3-dev)"
#endif

// Term builders dispatched by icg_mk. The arities are checked on the Go side.
enum {
	ICG_ADD = 1, ICG_SUB, ICG_MUL, ICG_NEG, ICG_DIV, ICG_MOD, ICG_REM,
	ICG_LT, ICG_LE, ICG_GT, ICG_GE, ICG_EQ, ICG_DISTINCT,
	ICG_NOT, ICG_AND, ICG_OR, ICG_IMPLIES, ICG_ITE,
	ICG_SELECT, ICG_STORE, ICG_SIMPLIFY
};

// Sorts as the Go side numbers them (see type Sort).
enum { ICG_NOSORT = 0, ICG_BOOL, ICG_INT, ICG_ARRAY, ICG_OTHERSORT };

// icg_ok reports whether the last API call succeeded. Every Z3 API call
// resets the context's error code on entry, so this reads the outcome of the
// call just made.
static inline int icg_ok(Z3_context c) { return Z3_get_error_code(c) == Z3_OK; }

// icg_keep takes a reference to a freshly returned AST, or returns NULL when
// the call that produced it failed (the error code stays set for Go to read).
static inline Z3_ast icg_keep(Z3_context c, Z3_ast r) {
	if (r == NULL || !icg_ok(c)) return NULL;
	Z3_inc_ref(c, r);
	return r;
}

static inline Z3_context icg_mk_context(void) {
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL) return NULL;
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	// The default handler prints and calls exit(1); with none, a failing
	// call only sets the error code.
	if (c != NULL) Z3_set_error_handler(c, NULL);
	return c;
}

// icg_sort_of maps a Z3 sort to the Go numbering.
static inline int icg_sort_of(Z3_context c, Z3_sort s) {
	if (s == NULL) return ICG_NOSORT;
	switch (Z3_get_sort_kind(c, s)) {
	case Z3_BOOL_SORT: return ICG_BOOL;
	case Z3_INT_SORT: return ICG_INT;
	case Z3_ARRAY_SORT:
		if (Z3_get_sort_kind(c, Z3_get_array_sort_domain(c, s)) == Z3_INT_SORT &&
		    Z3_get_sort_kind(c, Z3_get_array_sort_range(c, s)) == Z3_INT_SORT)
			return ICG_ARRAY;
		return ICG_OTHERSORT;
	default: return ICG_OTHERSORT;
	}
}

// icg_sorts creates the three sorts of the Go API, referenced, in Go order.
static inline int icg_sorts(Z3_context c, Z3_sort out[4]) {
	out[ICG_NOSORT] = NULL;
	out[ICG_BOOL] = Z3_mk_bool_sort(c);
	out[ICG_INT] = Z3_mk_int_sort(c);
	out[ICG_ARRAY] = Z3_mk_array_sort(c, out[ICG_INT], out[ICG_INT]);
	if (!icg_ok(c) || out[ICG_BOOL] == NULL || out[ICG_INT] == NULL || out[ICG_ARRAY] == NULL) {
		for (int i = 0; i < 4; i++) out[i] = NULL;
		return 0;
	}
	for (int i = ICG_BOOL; i <= ICG_ARRAY; i++) Z3_inc_ref(c, Z3_sort_to_ast(c, out[i]));
	return 1;
}

// icg_symbol makes a string symbol from a Go string (not NUL-terminated).
static inline Z3_symbol icg_symbol(Z3_context c, const char *p, size_t n) {
	char buf[128];
	char *s = buf;
	if (n >= sizeof buf) {
		s = malloc(n + 1);
		if (s == NULL) return NULL;
	}
	if (n > 0) memcpy(s, p, n);
	s[n] = 0;
	Z3_symbol sym = Z3_mk_string_symbol(c, s);
	if (s != buf) free(s);
	return sym;
}

static inline Z3_ast icg_const(Z3_context c, const char *p, size_t n, Z3_sort s) {
	Z3_symbol sym = icg_symbol(c, p, n);
	if (sym == NULL) return NULL;
	return icg_keep(c, Z3_mk_const(c, sym, s));
}

static inline Z3_ast icg_int64(Z3_context c, int64_t v, Z3_sort s) {
	return icg_keep(c, Z3_mk_int64(c, v, s));
}

static inline Z3_ast icg_numeral(Z3_context c, const char *num, Z3_sort s) {
	return icg_keep(c, Z3_mk_numeral(c, num, s));
}

static inline Z3_ast icg_bool(Z3_context c, int v) {
	return icg_keep(c, v ? Z3_mk_true(c) : Z3_mk_false(c));
}

// icg_mk builds one term; a holds n arguments.
static inline Z3_ast icg_mk(Z3_context c, int op, unsigned n, const Z3_ast *a) {
	Z3_ast r = NULL;
	switch (op) {
	case ICG_ADD: r = Z3_mk_add(c, n, a); break;
	case ICG_SUB: r = Z3_mk_sub(c, n, a); break;
	case ICG_MUL: r = Z3_mk_mul(c, n, a); break;
	case ICG_NEG: r = Z3_mk_unary_minus(c, a[0]); break;
	case ICG_DIV: r = Z3_mk_div(c, a[0], a[1]); break;
	case ICG_MOD: r = Z3_mk_mod(c, a[0], a[1]); break;
	case ICG_REM: r = Z3_mk_rem(c, a[0], a[1]); break;
	case ICG_LT: r = Z3_mk_lt(c, a[0], a[1]); break;
	case ICG_LE: r = Z3_mk_le(c, a[0], a[1]); break;
	case ICG_GT: r = Z3_mk_gt(c, a[0], a[1]); break;
	case ICG_GE: r = Z3_mk_ge(c, a[0], a[1]); break;
	case ICG_EQ: r = Z3_mk_eq(c, a[0], a[1]); break;
	case ICG_DISTINCT: r = Z3_mk_distinct(c, n, a); break;
	case ICG_NOT: r = Z3_mk_not(c, a[0]); break;
	case ICG_AND: r = Z3_mk_and(c, n, a); break;
	case ICG_OR: r = Z3_mk_or(c, n, a); break;
	case ICG_IMPLIES: r = Z3_mk_implies(c, a[0], a[1]); break;
	case ICG_ITE: r = Z3_mk_ite(c, a[0], a[1], a[2]); break;
	case ICG_SELECT: r = Z3_mk_select(c, a[0], a[1]); break;
	case ICG_STORE: r = Z3_mk_store(c, a[0], a[1], a[2]); break;
	case ICG_SIMPLIFY: r = Z3_simplify(c, a[0]); break;
	default: return NULL;
	}
	return icg_keep(c, r);
}

// icg_func_decl declares an uninterpreted function and returns it as a
// referenced AST.
static inline Z3_ast icg_func_decl(Z3_context c, const char *p, size_t n,
                                   unsigned arity, const Z3_sort *dom, Z3_sort rng) {
	Z3_symbol sym = icg_symbol(c, p, n);
	if (sym == NULL) return NULL;
	Z3_func_decl d = Z3_mk_func_decl(c, sym, arity, dom, rng);
	if (d == NULL || !icg_ok(c)) return NULL;
	return icg_keep(c, Z3_func_decl_to_ast(c, d));
}

static inline Z3_ast icg_apply(Z3_context c, Z3_ast f, unsigned n, const Z3_ast *a) {
	Z3_func_decl d = Z3_to_func_decl(c, f);
	if (d == NULL || !icg_ok(c)) return NULL;
	return icg_keep(c, Z3_mk_app(c, d, n, a));
}

// icg_release drops the references of n arena entries, newest first.
static inline void icg_release(Z3_context c, Z3_ast *a, size_t n) {
	while (n > 0) {
		n--;
		Z3_dec_ref(c, a[n]);
	}
}

// icg_take references the n elements of v into out and then drops v, which
// the caller had referenced.
static inline void icg_take(Z3_context c, Z3_ast_vector v, unsigned n, Z3_ast *out) {
	for (unsigned i = 0; i < n; i++) {
		out[i] = Z3_ast_vector_get(c, v, i);
		Z3_inc_ref(c, out[i]);
	}
	Z3_ast_vector_dec_ref(c, v);
}

// icg_vec references a freshly returned vector and returns its size, or -1
// when the call that produced it failed.
static inline long icg_vec(Z3_context c, Z3_ast_vector v) {
	if (v == NULL || !icg_ok(c)) return -1;
	Z3_ast_vector_inc_ref(c, v);
	return (long)Z3_ast_vector_size(c, v);
}

// Inspection.

static inline int icg_is_app(Z3_context c, Z3_ast a) {
	Z3_ast_kind k = Z3_get_ast_kind(c, a);
	return k == Z3_APP_AST || k == Z3_NUMERAL_AST;
}

static inline long icg_decl_kind(Z3_context c, Z3_ast a) {
	if (!icg_is_app(c, a)) return -1;
	return (long)Z3_get_decl_kind(c, Z3_get_app_decl(c, Z3_to_app(c, a)));
}

static inline unsigned icg_num_args(Z3_context c, Z3_ast a) {
	if (!icg_is_app(c, a)) return 0;
	return Z3_get_app_num_args(c, Z3_to_app(c, a));
}

static inline Z3_ast icg_arg(Z3_context c, Z3_ast a, unsigned i) {
	return icg_keep(c, Z3_get_app_arg(c, Z3_to_app(c, a), i));
}

// icg_decl_name returns the name of a term's declaration: a string symbol's
// text, or NULL with *num set for an integer symbol.
static inline const char *icg_decl_name(Z3_context c, Z3_ast a, int *num) {
	*num = -1;
	if (!icg_is_app(c, a)) return NULL;
	Z3_symbol s = Z3_get_decl_name(c, Z3_get_app_decl(c, Z3_to_app(c, a)));
	if (Z3_get_symbol_kind(c, s) == Z3_INT_SYMBOL) {
		*num = Z3_get_symbol_int(c, s);
		return NULL;
	}
	return Z3_get_symbol_string(c, s);
}

static inline int icg_term_sort(Z3_context c, Z3_ast a) {
	Z3_ast_kind k = Z3_get_ast_kind(c, a);
	if (k != Z3_APP_AST && k != Z3_NUMERAL_AST && k != Z3_VAR_AST && k != Z3_QUANTIFIER_AST)
		return ICG_NOSORT;
	return icg_sort_of(c, Z3_get_sort(c, a));
}

// icg_int64_value reads a numeral that fits in an int64.
static inline int icg_int64_value(Z3_context c, Z3_ast a, int64_t *v) {
	if (Z3_get_ast_kind(c, a) != Z3_NUMERAL_AST) return 0;
	if (!Z3_get_numeral_int64(c, a, v)) return 0;
	return icg_ok(c);
}

static inline const char *icg_numeral_string(Z3_context c, Z3_ast a) {
	if (Z3_get_ast_kind(c, a) != Z3_NUMERAL_AST) return NULL;
	return Z3_get_numeral_string(c, a);
}

// Solvers.

// icg_mk_solver makes a referenced simple solver with the given parameters.
static inline Z3_solver icg_mk_solver(Z3_context c, Z3_params p) {
	Z3_solver s = Z3_mk_simple_solver(c);
	if (s == NULL || !icg_ok(c)) return NULL;
	Z3_solver_inc_ref(c, s);
	Z3_solver_set_params(c, s, p);
	if (!icg_ok(c)) {
		Z3_solver_dec_ref(c, s);
		return NULL;
	}
	return s;
}

// icg_solver_params makes referenced solver parameters. ctrl_c=false keeps
// Z3 from installing its own SIGINT handler around every check (the default
// in 4.8, process-wide and unsynchronized: wrong under Go's signal handling
// and with several contexts). rlimit and timeout are set when nonzero.
static inline Z3_params icg_solver_params(Z3_context c, int ctrl_c, unsigned rlimit, unsigned timeout) {
	Z3_params p = Z3_mk_params(c);
	if (p == NULL || !icg_ok(c)) return NULL;
	Z3_params_inc_ref(c, p);
	if (ctrl_c >= 0)
		Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), ctrl_c != 0);
	if (rlimit > 0)
		Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), rlimit);
	if (timeout > 0)
		Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout);
	return p;
}

static inline int icg_set_param(Z3_context c, Z3_solver s, const char *name, unsigned v) {
	Z3_params p = Z3_mk_params(c);
	if (p == NULL || !icg_ok(c)) return 0;
	Z3_params_inc_ref(c, p);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, name), v);
	Z3_solver_set_params(c, s, p);
	int ok = icg_ok(c);
	Z3_params_dec_ref(c, p);
	return ok;
}

// icg_settle checks an empty solver. Z3_interrupt cancels the context's
// resource limit as well as the running check; when it lands after the
// check has let go of its handler, the cancellation stays on the context
// until the next check starts, and formulas asserted meanwhile are lost.
// A check of nothing starts and ends at once and clears it. Its solver
// takes the context's solver parameters: with Z3's defaults (ctrl_c) the
// check would install Z3's SIGINT handler, which the Go runtime refuses.
static inline void icg_settle(Z3_context c, Z3_params p) {
	Z3_solver s = icg_mk_solver(c, p);
	if (s == NULL) return;
	Z3_solver_check(c, s);
	Z3_solver_dec_ref(c, s);
}

static inline int icg_check(Z3_context c, Z3_solver s, unsigned n, const Z3_ast *a) {
	if (n == 0) return (int)Z3_solver_check(c, s);
	return (int)Z3_solver_check_assumptions(c, s, n, a);
}

// icg_spent returns Z3's "rlimit count" statistic of s: the resources
// its context has spent, all solvers together; -1 when it is missing.
static inline long long icg_spent(Z3_context c, Z3_solver s) {
	Z3_stats st = Z3_solver_get_statistics(c, s);
	if (st == NULL || !icg_ok(c)) return -1;
	Z3_stats_inc_ref(c, st);
	long long v = -1;
	unsigned n = Z3_stats_size(c, st);
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(Z3_stats_get_key(c, st, i), "rlimit count") != 0) continue;
		if (Z3_stats_is_uint(c, st, i)) v = Z3_stats_get_uint_value(c, st, i);
		else v = (long long)Z3_stats_get_double_value(c, st, i);
		break;
	}
	Z3_stats_dec_ref(c, st);
	return v;
}

static inline Z3_model icg_model(Z3_context c, Z3_solver s) {
	Z3_model m = Z3_solver_get_model(c, s);
	if (m == NULL || !icg_ok(c)) return NULL;
	Z3_model_inc_ref(c, m);
	return m;
}

static inline Z3_ast icg_eval(Z3_context c, Z3_model m, Z3_ast a, int completion) {
	Z3_ast r = NULL;
	if (!Z3_model_eval(c, m, a, completion != 0, &r)) return NULL;
	return icg_keep(c, r);
}

// Tactics.

// icg_fail copies the message of the failed call just made into *err (for
// Go to read and free) so that the clean-up calls after it cannot reset it.
static inline void icg_fail(Z3_context c, char **err) {
	Z3_error_code code = Z3_get_error_code(c);
	const char *msg = code == Z3_OK ? "failed" : Z3_get_error_msg(c, code);
	*err = strdup(msg ? msg : "failed");
}

// icg_apply_tactic applies the named tactic to a goal holding fs and returns
// the referenced apply result, or NULL with *err set.
static inline Z3_apply_result icg_apply_tactic(Z3_context c, const char *name, unsigned n,
                                               const Z3_ast *fs, char **err) {
	*err = NULL;
	Z3_goal g = Z3_mk_goal(c, false, false, false);
	if (g == NULL || !icg_ok(c)) {
		icg_fail(c, err);
		return NULL;
	}
	Z3_goal_inc_ref(c, g);
	Z3_tactic t = NULL;
	Z3_apply_result r = NULL;
	for (unsigned i = 0; i < n; i++) {
		Z3_goal_assert(c, g, fs[i]);
		if (!icg_ok(c)) {
			icg_fail(c, err);
			goto done;
		}
	}
	t = Z3_mk_tactic(c, name);
	if (t == NULL || !icg_ok(c)) {
		icg_fail(c, err);
		t = NULL;
		goto done;
	}
	Z3_tactic_inc_ref(c, t);
	r = Z3_tactic_apply(c, t, g);
	if (r == NULL || !icg_ok(c)) {
		icg_fail(c, err);
		r = NULL;
		goto done;
	}
	Z3_apply_result_inc_ref(c, r);
done:
	if (t != NULL) Z3_tactic_dec_ref(c, t);
	Z3_goal_dec_ref(c, g);
	return r;
}

static inline unsigned icg_num_subgoals(Z3_context c, Z3_apply_result r) {
	return Z3_apply_result_get_num_subgoals(c, r);
}

// icg_subgoal references subgoal i of r into *g and returns its size.
static inline unsigned icg_subgoal(Z3_context c, Z3_apply_result r, unsigned i, Z3_goal *g) {
	*g = Z3_apply_result_get_subgoal(c, r, i);
	Z3_goal_inc_ref(c, *g);
	return Z3_goal_size(c, *g);
}

static inline void icg_take_goal(Z3_context c, Z3_goal g, unsigned n, Z3_ast *out) {
	for (unsigned i = 0; i < n; i++) {
		out[i] = Z3_goal_formula(c, g, i);
		Z3_inc_ref(c, out[i]);
	}
	Z3_goal_dec_ref(c, g);
}

// SMT-LIB2.

static inline const char *icg_benchmark(Z3_context c, const char *name, unsigned n, const Z3_ast *a) {
	Z3_ast f;
	if (n == 0) {
		f = Z3_mk_true(c);
	} else {
		f = a[n - 1];
		n--;
	}
	return Z3_benchmark_to_smtlib_string(c, name, "", "unknown", "", n, a, f);
}

static inline Z3_ast_vector icg_parse(Z3_context c, const char *text) {
	return Z3_parse_smtlib2_string(c, text, 0, NULL, NULL, 0, NULL, NULL);
}

#endif
