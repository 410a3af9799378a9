package lang

import (
	"math"
	"testing"
)

func TestArith(t *testing.T) {
	t.Parallel()
	const min, max = math.MinInt64, math.MaxInt64
	type c struct {
		name   string
		f      func(x, y int64) (int64, bool)
		x, y   int64
		want   int64
		wantOK bool
	}
	mod := func(x, y int64) (int64, bool) { return Mod(x, y), true }
	cases := []c{
		{"add", Add, 2, 3, 5, true}, {"add max", Add, max, 1, 0, false}, {"add min", Add, min, -1, 0, false},
		{"add to max", Add, max - 1, 1, max, true},
		{"sub", Sub, 2, 3, -1, true}, {"sub min", Sub, min, 1, 0, false}, {"sub max", Sub, max, -1, 0, false},
		{"mul", Mul, -4, 5, -20, true}, {"mul max", Mul, max, 2, 0, false}, {"mul min -1", Mul, min, -1, 0, false},
		{"mul -1 min", Mul, -1, min, 0, false}, {"mul min 1", Mul, min, 1, min, true}, {"mul zero", Mul, 0, min, 0, true},
		{"div trunc", Div, -7, 2, -3, true}, {"div neg", Div, 7, -2, -3, true}, {"div both", Div, -7, -2, 3, true},
		{"div min -1", Div, min, -1, 0, false},
		{"mod", mod, -7, 2, -1, true}, {"mod neg", mod, 7, -2, 1, true}, {"mod both", mod, -7, -2, -1, true},
		{"mod min -1", mod, min, -1, 0, true},
	}
	for _, tc := range cases {
		got, ok := tc.f(tc.x, tc.y)
		if ok != tc.wantOK || ok && got != tc.want {
			t.Errorf("%s(%d, %d) = %d, %v; want %d, %v", tc.name, tc.x, tc.y, got, ok, tc.want, tc.wantOK)
		}
	}
}
