package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/sqldoor"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// SQL is the executor of the SQL door (sqldoor.Serve): the statements the
// upstream's e2e harness writes into its server's database, carried out
// on the mock's records.
func (m *Server) SQL() sqldoor.Executor { return sqlExecutor{m.s} }

// sqlExecutor carries out the door's statements:
//   - DELETE FROM a table of tableDeletes, with no condition; of
//     system_metadata, with conditions on "key";
//   - UPDATE "assets" SET "stackId" = NULL, every asset unstacked;
//   - UPDATE "person" SET "thumbnailPath" = v WHERE "id" = v;
//   - INSERT INTO asset_faces ("assetId", "personId", "embedding", and the
//     bounding box's columns), a face found.
//
// Deletes and the unstacking that go one after another in a query change
// the records at once (one Replace), as one transaction; a face or a
// thumbnail is a write of the store's.
type sqlExecutor struct{ s *server }

// Exec carries out a query's statements in order.
func (e sqlExecutor) Exec(stmts []sqldoor.Statement) ([]string, error) {
	var tags []string
	for i := 0; i < len(stmts); {
		j := i
		for j < len(stmts) && wholeTable(stmts[j]) {
			j++
		}
		if j > i {
			done, err := e.wholeTables(stmts[i:j])
			if err != nil {
				return tags, err
			}
			tags = append(tags, done...)
			i = j
			continue
		}
		tag, err := e.row(stmts[i])
		if err != nil {
			return tags, err
		}
		tags = append(tags, tag)
		i++
	}
	return tags, nil
}

// wholeTable tells a statement that changes every row of a table (or of
// system_metadata, by key) from one that writes a row.
func wholeTable(st sqldoor.Statement) bool {
	switch st.Kind {
	case sqldoor.Delete:
		return true
	case sqldoor.Update:
		return st.Table == "assets"
	}
	return false
}

// wholeTables carries out deletes and unstackings on the records, and
// makes the result the state in one go. As with the control API's reset,
// a write of the API that lands between the read of the records and the
// Replace is lost: the door is for a test's set-up between its calls,
// not for traffic beside them.
func (e sqlExecutor) wholeTables(stmts []sqldoor.Statement) ([]string, error) {
	d := e.s.store.Records().Dataset()
	tags := make([]string, 0, len(stmts))
	noUsers := false
	for _, st := range stmts {
		n, err := applyWholeTable(&d, st)
		if err != nil {
			return nil, err
		}
		noUsers = noUsers || (st.Kind == sqldoor.Delete && st.Table == "users")
		tags = append(tags, fmt.Sprintf("%s %d", map[sqldoor.Kind]string{sqldoor.Delete: "DELETE", sqldoor.Update: "UPDATE"}[st.Kind], n))
	}
	if err := e.s.replaceRecords(d, noUsers); err != nil {
		return nil, fmt.Errorf("the records without those rows: %w", err)
	}
	return tags, nil
}

// applyWholeTable carries out one delete or unstacking on d: the rows it
// touched.
func applyWholeTable(d *model.Dataset, st sqldoor.Statement) (int, error) {
	if st.Kind == sqldoor.Update {
		if len(st.Where) > 0 || len(st.Set) != 1 || st.Set[0].Column != "stackId" || !st.Set[0].Value.Null {
			return 0, notTaken(`of "assets", this server takes UPDATE "assets" SET "stackId" = NULL alone (every asset out of its stack)`)
		}
		deleteStacks(d)
		return len(d.Assets), nil
	}
	if st.Table == "system_metadata" {
		match, err := keyMatcher(st.Where)
		if err != nil {
			return 0, err
		}
		return deleteSystemMetadata(d, match), nil
	}
	del := tableDeletes[st.Table]
	if del == nil {
		return 0, unknownTable(st.Table)
	}
	if len(st.Where) > 0 {
		return 0, notTaken("DELETE FROM %s empties the whole table here: it takes no WHERE", st.Table)
	}
	return del(d), nil
}

// keyMatcher reads the conditions of a delete of system_metadata, all on
// its "key".
func keyMatcher(where []sqldoor.Condition) (func(string) bool, error) {
	for _, c := range where {
		switch c.Column {
		case "key":
		case "value":
			return nil, notTaken(`of "system_metadata", this server reads conditions on "key" alone`)
		default:
			return nil, columnError("system_metadata", c.Column)
		}
	}
	return func(key string) bool {
		for _, c := range where {
			if (key == c.Value.Text) != (c.Op == "=") {
				return false
			}
		}
		return true
	}, nil
}

// row carries out a statement that writes rows one by one.
func (e sqlExecutor) row(st sqldoor.Statement) (string, error) {
	switch {
	case st.Kind == sqldoor.Update && st.Table == "person":
		return e.personThumbnail(st)
	case st.Kind == sqldoor.Insert && st.Table == "asset_faces":
		return e.insertFaces(st)
	case tableDeletes[st.Table] == nil:
		return "", unknownTable(st.Table)
	}
	return "", notTaken("this server takes no %s of %s", map[sqldoor.Kind]string{sqldoor.Update: "UPDATE", sqldoor.Insert: "INSERT"}[st.Kind], st.Table)
}

// personThumbnail is UPDATE "person" SET "thumbnailPath" = v WHERE "id" = v:
// UPDATE 0 where no person has the id, as a table answers.
func (e sqlExecutor) personThumbnail(st sqldoor.Statement) (string, error) {
	if len(st.Set) != 1 || st.Set[0].Column != "thumbnailPath" || len(st.Where) != 1 || st.Where[0].Column != "id" || st.Where[0].Op != "=" {
		return "", notTaken(`of "person", this server takes UPDATE "person" SET "thumbnailPath" = ... WHERE "id" = ... alone`)
	}
	path, id := st.Set[0].Value, st.Where[0].Value.Text
	if !dto.IsUUIDString(id) {
		return "", badUUID(id)
	}
	id = strings.ToLower(id)
	if path.Null {
		// The column takes no NULL: refused where a row would take it.
		var found bool
		e.s.store.Read(func(v *store.View) { found = v.Person(id) != nil })
		if !found {
			return "UPDATE 0", nil
		}
		return "", sqldoor.Errorf(sqldoor.CodeNotNull, `null value in column "thumbnailPath" of relation "person" violates not-null constraint`)
	}
	_, err := store.Update(e.s.store, func(tx *store.Tx) (*model.PersonRecord, error) {
		return tx.SetPersonThumbnail(id, path.Text)
	})
	var se *store.Error
	switch {
	case errors.As(err, &se) && se.Code == store.NotFound:
		return "UPDATE 0", nil
	case errors.As(err, &se) && se.Code == store.Invalid:
		return "", sqldoor.Errorf(sqldoor.CodeDataException, "%s", se.Error())
	case err != nil:
		return "", err
	}
	return "UPDATE 1", nil
}

// faceColumns are the columns of asset_faces an INSERT may name, and the
// field of store.NewFace each fills.
var faceColumns = map[string]func(f *store.NewFace, v int){
	"boundingBoxX1": func(f *store.NewFace, v int) { f.X1 = v },
	"boundingBoxY1": func(f *store.NewFace, v int) { f.Y1 = v },
	"boundingBoxX2": func(f *store.NewFace, v int) { f.X2 = v },
	"boundingBoxY2": func(f *store.NewFace, v int) { f.Y2 = v },
	"imageWidth":    func(f *store.NewFace, v int) { f.ImageWidth = v },
	"imageHeight":   func(f *store.NewFace, v int) { f.ImageHeight = v },
}

// insertFaces is INSERT INTO asset_faces: a face of a person in an asset
// per row, all or none.
func (e sqlExecutor) insertFaces(st sqldoor.Statement) (string, error) {
	faces := make([]store.NewFace, 0, len(st.Rows))
	for _, row := range st.Rows {
		f, err := faceOf(st.Columns, row)
		if err != nil {
			return "", err
		}
		faces = append(faces, f)
	}
	_, err := store.Update(e.s.store, func(tx *store.Tx) (struct{}, error) {
		for _, f := range faces {
			if _, err := tx.AddFace(f); err != nil {
				return struct{}{}, err
			}
		}
		return struct{}{}, nil
	})
	if se, ok := errors.AsType[*store.Error](err); ok {
		return "", sqldoor.Errorf(sqldoor.CodeForeignKey, `insert or update on table "asset_faces" violates foreign key constraint: %s`, se.Error())
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("INSERT 0 %d", len(faces)), nil
}

// faceOf reads a row of asset_faces.
func faceOf(columns []string, row []sqldoor.Value) (store.NewFace, error) {
	var f store.NewFace
	embedded := false
	for i, col := range columns {
		v := row[i]
		switch col {
		case "assetId", "personId":
			if v.Null {
				if col == "personId" {
					return f, notTaken("a face without a person is not kept here")
				}
				return f, sqldoor.Errorf(sqldoor.CodeNotNull, `null value in column "assetId" of relation "asset_faces" violates not-null constraint`)
			}
			if !dto.IsUUIDString(v.Text) {
				return f, badUUID(v.Text)
			}
			if col == "assetId" {
				f.AssetID = strings.ToLower(v.Text)
			} else {
				f.PersonID = strings.ToLower(v.Text)
			}
		case "embedding":
			if err := checkEmbedding(v); err != nil {
				return f, err
			}
			embedded = !v.Null
		default:
			set := faceColumns[col]
			if set == nil {
				return f, columnError("asset_faces", col)
			}
			n, err := strconv.ParseInt(v.Text, 10, 32)
			if err != nil || v.Null {
				return f, sqldoor.Errorf(sqldoor.CodeBadText, "invalid input syntax for type integer: %q", clipText(v.Text))
			}
			set(&f, int(n))
		}
	}
	if f.AssetID == "" {
		return f, sqldoor.Errorf(sqldoor.CodeNotNull, `null value in column "assetId" of relation "asset_faces" violates not-null constraint`)
	}
	if !embedded {
		return f, sqldoor.Errorf(sqldoor.CodeNotNull, `null value in column "embedding" of relation "asset_faces" violates not-null constraint`)
	}
	if f.PersonID == "" {
		return f, notTaken("a face without a person is not kept here")
	}
	return f, nil
}

// embeddingDimensions is the size of the upstream's face embeddings,
// vector(512).
const embeddingDimensions = 512

// checkEmbedding checks a face's embedding as its column would: a vector
// of 512 numbers, "[x,y,...]" (NULL is refused with the row). The mock
// keeps none (it has no machine learning to compare them).
func checkEmbedding(v sqldoor.Value) error {
	if v.Null {
		return nil
	}
	s := strings.TrimSpace(v.Text)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return sqldoor.Errorf(sqldoor.CodeBadText, `invalid input syntax for type vector: %q`, clipText(v.Text))
	}
	parts := strings.Split(s[1:len(s)-1], ",")
	for _, p := range parts {
		if _, err := strconv.ParseFloat(strings.TrimSpace(p), 32); err != nil {
			return sqldoor.Errorf(sqldoor.CodeBadText, `invalid input syntax for type vector: %q`, clipText(v.Text))
		}
	}
	if len(parts) != embeddingDimensions {
		return sqldoor.Errorf(sqldoor.CodeDataException, "expected %d dimensions, not %d", embeddingDimensions, len(parts))
	}
	return nil
}

// clipText is the start of a long value, for a message.
func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func notTaken(format string, args ...any) error {
	return sqldoor.Errorf(sqldoor.CodeNotSupported, format, args...)
}

func unknownTable(t string) error {
	return sqldoor.Errorf(sqldoor.CodeUndefinedTable, "relation %q does not exist (this server's tables: %s)", t, strings.Join(resettable(), ", "))
}

func columnError(table, col string) error {
	return sqldoor.Errorf(sqldoor.CodeUndefinedColumn, "column %q of relation %q does not exist", col, table)
}

func badUUID(v string) error {
	return sqldoor.Errorf(sqldoor.CodeBadText, "invalid input syntax for type uuid: %q", clipText(v))
}
