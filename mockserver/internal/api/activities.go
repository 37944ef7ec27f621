package api

import (
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Activities: the comments and likes of an album's users (the upstream's
// activity controller).

// activityDTO is ActivityDto's members, which ActivitySearchDto and
// ActivityCreateDto extend (their own members are judged first).
var activityDTO = []dto.Property{
	dto.Field("albumId", dto.ValidateUUID(dto.ValidateUUIDOptions{})),
	dto.Field("assetId", optionalUUID),
}

var (
	reactionType  = dto.As(dto.IsEnum(model.ActivityComment, model.ActivityLike))
	reactionLevel = dto.As(dto.IsEnum("album", "asset"))
)

// ActivityDto: GET /api/activities/statistics.
var activityQuery = dto.NewClass("ActivityDto", activityDTO...)

// ActivitySearchDto: GET /api/activities.
var activitySearchQuery = dto.NewClass("ActivitySearchDto", append([]dto.Property{
	dto.Field("type", reactionType, optional),
	dto.Field("level", reactionLevel, optional),
	dto.Field("userId", optionalUUID),
}, activityDTO...)...)

// ActivityCreateDto: POST /api/activities. A comment is judged only for
// a comment, as the upstream's ValidateIf says.
var activityCreateBody = dto.NewClass("ActivityCreateDto", append([]dto.Property{
	dto.Field("type", reactionType),
	dto.Field("comment", dto.ValidateIf(func(o dto.Body) bool { t, _ := o.String("type"); return t == model.ActivityComment }),
		isNotEmpty, isString).Limit(store.MaxCommentChars),
}, activityDTO...)...)

// activityAnswer is a as ActivityResponseDto shows it.
func activityAnswer(v *store.View, a *model.ActivityRecord) model.Activity {
	kind := model.ActivityComment
	if a.IsLiked {
		kind = model.ActivityLike
	}
	return model.Activity{
		ID: a.ID, AssetID: a.AssetID, CreatedAt: a.CreatedAt, Comment: a.Comment, Type: kind,
		User: userAnswer(v.User(a.UserID)),
	}
}

// activities is GET /api/activities?albumId&assetId&type&level&userId.
func (s *server) activities(c *call) error {
	b, err := readQuery(c.r.URL.Query(), activitySearchQuery)
	if err != nil {
		return err
	}
	f := store.ActivityFilter{UserID: optionalID(b, "userId"), AssetID: optionalID(b, "assetId")}
	f.AlbumID = *optionalID(b, "albumId")
	if level, _ := b.String("level"); level == "album" {
		f.AlbumOnly = true
	}
	if kind, ok := b.String("type"); ok {
		f.IsLiked = new(kind == model.ActivityLike)
	}
	out, err := store.Query(s.store, func(v *store.View) ([]model.Activity, error) {
		found, err := v.Activities(c.p(), f)
		if err != nil {
			return nil, err
		}
		out := make([]model.Activity, 0, len(found))
		for _, a := range found {
			out = append(out, activityAnswer(v, a))
		}
		return out, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// activityStatistics is GET /api/activities/statistics?albumId&assetId:
// how many comments.
func (s *server) activityStatistics(c *call) error {
	b, err := readQuery(c.r.URL.Query(), activityQuery)
	if err != nil {
		return err
	}
	n, err := store.Query(s.store, func(v *store.View) (int, error) {
		return v.ActivityComments(c.p(), *optionalID(b, "albumId"), optionalID(b, "assetId"))
	})
	if err != nil {
		return err
	}
	return c.json(http.StatusOK, map[string]int{"comments": n})
}

// createActivity is POST /api/activities: 201 with the new activity, or
// 200 with the like the caller already gave.
func (s *server) createActivity(c *call, b dto.Body) error {
	kind, _ := b.String("type")
	na := store.NewActivity{AlbumID: *optionalID(b, "albumId"), AssetID: optionalID(b, "assetId"), Like: kind == model.ActivityLike}
	na.Comment, _ = b.String("comment")
	status := http.StatusCreated
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Activity, error) {
		a, duplicate, err := tx.AddActivity(c.p().User.ID, na)
		if err != nil {
			return model.Activity{}, err
		}
		if duplicate {
			status = http.StatusOK
		}
		return activityAnswer(&tx.View, a), nil
	})
	return answer(c, status, out, err)
}

// deleteActivity is DELETE /api/activities/{id}: its author or the
// album's owner; 204.
func (s *server) deleteActivity(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveActivity(c.p().User.ID, c.id) }); err != nil {
		return err
	}
	return noContent(c)
}
