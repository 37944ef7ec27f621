package mockserver

import "net/http"

// request is what an operation reads of a request, in the contract's
// order: who it acts for, the path's id, then the JSON body.
type request struct {
	principal principal
	id        string
	body      jsonBody
}

// read reads a request for an operation on one object: authenticated with
// auth, then its path's {id}, then, with body, its JSON body. The first
// problem is the answer.
func (s *server) read(r *http.Request, auth func(*http.Request) (principal, error), withID, withBody bool) (request, error) {
	var in request
	var err error
	if in.principal, err = auth(r); err != nil {
		return in, err
	}
	if withID {
		if in.id, err = pathID(r); err != nil {
			return in, err
		}
	}
	if withBody {
		if in.body, err = readJSON(r); err != nil {
			return in, err
		}
	}
	return in, nil
}

// answer writes v with status, or err as the error body.
func answer(w http.ResponseWriter, status int, v any, err error) {
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, v)
}
