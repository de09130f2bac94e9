package adminapi

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/media"
)

// The media library (WordPress's /wp/v2/media): upload, list, read, edit
// and delete images; the use cases are media.Library's.
//
// An upload is POST /wp-json/wp/v2/media with the file in a multipart
// field named file (and optional title and alt_text fields). It answers
// 201 with the attachment once its sizes are made. When the file was
// stored but its sizes failed, the answer is a 500 that carries the
// attachment's id in X-WP-Upload-Attachment-ID, as WordPress's does: the
// client then asks for the sizes (POST .../{id}/post-process with
// {"action":"create-image-subsizes"}) up to five times, and deletes the
// upload (DELETE .../{id}?force=true) if they still fail.

// UploadBodyLimit is the largest upload request: the file's cap and room
// for the multipart framing and the text fields. The server lets this
// route's bodies grow to it (and no other's).
const UploadBodyLimit = media.MaxUploadBytes + 64<<10

// UploadAttachmentHeader names the stored attachment of an upload whose
// answer failed.
const UploadAttachmentHeader = "X-WP-Upload-Attachment-ID"

// mediaSize is one entry of media_details.sizes.
type mediaSize struct {
	File      string `json:"file"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	MimeType  string `json:"mime_type"`
	SourceURL string `json:"source_url"`
}

type rendered struct {
	Raw      string `json:"raw"`
	Rendered string `json:"rendered"`
}

// attachmentJSON is WordPress's attachment, with the fields the admin
// uses.
type attachmentJSON struct {
	ID           int64    `json:"id"`
	Date         *string  `json:"date"`
	DateGMT      *string  `json:"date_gmt"`
	Slug         string   `json:"slug"`
	Status       string   `json:"status"`
	Type         string   `json:"type"`
	Title        rendered `json:"title"`
	Author       int64    `json:"author"`
	AltText      string   `json:"alt_text"`
	Caption      rendered `json:"caption"`
	MediaType    string   `json:"media_type"`
	MimeType     string   `json:"mime_type"`
	SourceURL    string   `json:"source_url"`
	MediaDetails struct {
		Width  int                  `json:"width"`
		Height int                  `json:"height"`
		File   string               `json:"file"`
		Sizes  map[string]mediaSize `json:"sizes"`
	} `json:"media_details"`
	// MissingImageSizes names the sizes not made yet (a pending upload).
	MissingImageSizes []string `json:"missing_image_sizes"`
}

func attachmentOut(a *media.Attachment) attachmentJSON {
	out := attachmentJSON{ID: a.ID, Slug: strings.TrimSuffix(a.Name, path.Ext(a.Name)), Status: "inherit", Type: "attachment",
		Title:   rendered{Raw: a.Title, Rendered: html.EscapeString(a.Title)},
		Author:  a.AuthorID,
		AltText: a.Alt, Caption: rendered{Raw: a.Caption, Rendered: html.EscapeString(a.Caption)},
		MediaType: "image", MimeType: a.MimeType, SourceURL: a.Src, MissingImageSizes: []string{}}
	if out.MimeType == "" {
		out.MimeType = typeOf(a.Src)
	}
	if !a.Uploaded.IsZero() {
		d := a.Uploaded.UTC().Format("2006-01-02T15:04:05")
		out.Date, out.DateGMT = &d, &d
	}
	if out.Slug == "" {
		out.Slug = strconv.FormatInt(a.ID, 10)
	}
	md := &out.MediaDetails
	md.Width, md.Height, md.File = a.Width, a.Height, strings.TrimPrefix(a.Src, "/media/")
	md.Sizes = map[string]mediaSize{}
	for _, s := range a.Sizes {
		md.Sizes[media.SizeName(s.Width)] = mediaSize{File: path.Base(s.Src), Width: s.Width, Height: s.Height,
			MimeType: typeOf(s.Src), SourceURL: s.Src}
	}
	md.Sizes["full"] = mediaSize{File: path.Base(a.Src), Width: a.Width, Height: a.Height, MimeType: out.MimeType, SourceURL: a.Src}
	if a.Pending {
		for _, s := range media.Sizes {
			if s.Width < a.Width {
				out.MissingImageSizes = append(out.MissingImageSizes, s.Name)
			}
		}
	}
	return out
}

// typeOf is a stored file's type by its extension (the files are ours).
func typeOf(src string) string {
	switch strings.ToLower(path.Ext(src)) {
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".png":
		return "image/png"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}

// mediaNotFound is WordPress's answer for an unknown attachment.
func mediaNotFound(err error) error {
	if errors.Is(err, catalog.ErrNotFound) {
		return &Error{Status: http.StatusNotFound, Code: "rest_post_invalid_id", Message: "Invalid post ID."}
	}
	return err
}

// GET /wp-json/wp/v2/media?page=&per_page=&search=&include=
func (a *API) mediaList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var q media.Query
	return List[media.Attachment, attachmentJSON]{
		Search:  &q.Search,
		Filters: []Filter{IDs("include", &q.IncludeIDs, "include is a list of up to 100 ids.")},
		Fetch: func(ctx context.Context, p Paging) ([]media.Attachment, int, error) {
			q.Offset, q.Limit = p.Offset(), p.PerPage
			return a.d.Media.List(ctx, q)
		},
		Row: func(at media.Attachment) attachmentJSON { return attachmentOut(&at) },
	}.Serve(w, r)
}

// GET /wp-json/wp/v2/media/{id}
func (a *API) mediaGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	m, err := a.d.Media.Get(r.Context(), id)
	if err != nil {
		return mediaNotFound(err)
	}
	WriteJSON(w, http.StatusOK, attachmentOut(m))
	return nil
}

// POST /wp-json/wp/v2/media (multipart: file, title, alt_text)
func (a *API) mediaUpload(w http.ResponseWriter, r *http.Request, st Staff) error {
	r.Body = http.MaxBytesReader(w, r.Body, UploadBodyLimit)
	up, err := readUpload(r)
	if err != nil {
		return err
	}
	up.AuthorID = st.ID
	m, err := a.d.Media.Add(r.Context(), up)
	if err != nil && m != nil {
		// Stored, but the sizes failed: the client retries them by id.
		a.d.Log.Error("admin api: image sizes", "id", m.ID, "err", err)
		w.Header().Set(UploadAttachmentHeader, strconv.FormatInt(m.ID, 10))
		return &Error{Status: http.StatusInternalServerError, Code: "rest_upload_image_subsizes",
			Message: "The image was stored but its sizes could not be made.", Data: map[string]any{"attachment_id": m.ID}}
	}
	if err != nil {
		return err
	}
	Note(r, "media.upload", "media", m.ID, fmt.Sprintf("Uploaded %s (%d×%d, %s)", m.Name, m.Width, m.Height, m.MimeType))
	w.Header().Set("Location", "/wp-json/wp/v2/media/"+strconv.FormatInt(m.ID, 10))
	WriteJSON(w, http.StatusCreated, attachmentOut(m))
	return nil
}

// readUpload reads the multipart body as it streams: the file (at most
// media.MaxUploadBytes) and the short text fields.
func readUpload(r *http.Request) (media.NewUpload, error) {
	var up media.NewUpload
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return up, &Error{Status: http.StatusUnsupportedMediaType, Code: "rest_upload_no_data",
			Message: "Send the image as multipart/form-data, in a field named file."}
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return up, bodyError(err)
	}
	gotFile := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return up, bodyError(err)
		}
		switch part.FormName() {
		case "file":
			if gotFile {
				return up, InvalidParam("file", "Send one file per upload.")
			}
			gotFile = true
			up.FileName = part.FileName()
			up.Data, err = io.ReadAll(io.LimitReader(part, media.MaxUploadBytes+1))
			if err != nil {
				return up, bodyError(err)
			}
			if len(up.Data) > media.MaxUploadBytes {
				return up, media.ErrFileTooBig
			}
		case "title", "alt_text":
			b, err := io.ReadAll(io.LimitReader(part, 4<<10+1))
			if err != nil {
				return up, bodyError(err)
			}
			if len(b) > 4<<10 {
				return up, InvalidParam(part.FormName(), part.FormName()+" is too long.")
			}
			if part.FormName() == "title" {
				up.Title = string(b)
			} else {
				up.Alt = string(b)
			}
		}
		part.Close()
	}
	if !gotFile || len(up.Data) == 0 {
		return up, media.ErrNoData
	}
	return up, nil
}

func bodyError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return media.ErrFileTooBig
	}
	return &Error{Status: http.StatusBadRequest, Code: "rest_upload_no_data", Message: "The upload could not be read."}
}

// POST /wp-json/wp/v2/media/{id}/post-process {"action":"create-image-subsizes"}
func (a *API) mediaPostProcess(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var body struct {
		Action string `json:"action"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return err
	}
	if body.Action != "create-image-subsizes" {
		return InvalidParam("action", "action is not one of create-image-subsizes.")
	}
	m, err := a.d.Media.CreateSubsizes(r.Context(), id)
	if err != nil {
		return mediaNotFound(err)
	}
	Note(r, "media.subsizes", "media", m.ID, fmt.Sprintf("Made the sizes of %s", m.Name))
	WriteJSON(w, http.StatusOK, attachmentOut(m))
	return nil
}

// POST|PUT|PATCH /wp-json/wp/v2/media/{id} {"title","alt_text","caption"}
func (a *API) mediaUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var body struct {
		Title   *string `json:"title"`
		AltText *string `json:"alt_text"`
		Caption *string `json:"caption"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return err
	}
	m, err := a.d.Media.Update(r.Context(), id, media.Edit{Title: body.Title, Alt: body.AltText, Caption: body.Caption})
	if err != nil {
		return mediaNotFound(err)
	}
	var what []string
	for _, f := range []struct {
		set  bool
		name string
	}{{body.Title != nil, "title"}, {body.AltText != nil, "alt text"}, {body.Caption != nil, "caption"}} {
		if f.set {
			what = append(what, f.name)
		}
	}
	Note(r, "media.update", "media", m.ID, fmt.Sprintf("Edited the %s of %s", strings.Join(what, ", "), m.Name))
	WriteJSON(w, http.StatusOK, attachmentOut(m))
	return nil
}

// DELETE /wp-json/wp/v2/media/{id}?force=true (attachments have no trash:
// without force WordPress refuses, and so do we).
func (a *API) mediaDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	if f := r.URL.Query().Get("force"); f != "true" && f != "1" {
		return &Error{Status: http.StatusNotImplemented, Code: "rest_trash_not_supported",
			Message: `The media library has no trash. Set "force=true" to delete.`}
	}
	m, err := a.d.Media.Delete(r.Context(), id)
	if err != nil {
		return mediaNotFound(err)
	}
	Note(r, "media.delete", "media", m.ID, "Deleted "+m.Name)
	WriteJSON(w, http.StatusOK, map[string]any{"deleted": true, "previous": attachmentOut(m)})
	return nil
}
