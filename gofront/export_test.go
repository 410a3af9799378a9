package gofront

// LoadAllAtomic is Load with every function with a body taken as an
// atomic block: the corpus test lowers any code with it.
func LoadAllAtomic(pattern string) (*Package, error) {
	p, errs, err := load(pattern, true)
	if errs != nil {
		return nil, errs
	}
	return p, err
}
