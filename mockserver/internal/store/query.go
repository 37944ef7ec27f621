package store

// Query returns what f reads from the store in one consistent view, or
// the zero T and f's error.
func Query[T any](db *Store, f func(v *View) (T, error)) (T, error) {
	var out T
	var err error
	db.Read(func(v *View) { out, err = f(v) })
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}

// Update runs f in one write transaction and returns what it made. If f
// fails, the transaction is taken back, as Write takes it back, and Update
// returns the zero T and f's error.
func Update[T any](db *Store, f func(tx *Tx) (T, error)) (T, error) {
	var out T
	err := db.Write(func(tx *Tx) error {
		var err error
		out, err = f(tx)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}
