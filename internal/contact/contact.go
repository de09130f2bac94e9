// Package contact is the contact-form capability: a visitor's submission
// of one of the shop's forms (internal/contactform) is checked in Contact
// Form 7's order (schema, acceptance, bot-check, rate limit), stored with
// its uploaded files, and mailed to the shop through the outbox, the
// submission and its outbox row written in one transaction. It speaks no
// HTTP: the adapter (internal/contactapi) reads the multipart body and
// shapes CF7's JSON answer from a Result.
//
// contactform stays pure (forms, schema, validation); this package owns
// the use case and the store port, as support does for its messages.
package contact

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/clock"
	"vitrine/internal/contactform"
	"vitrine/internal/mail"
	"vitrine/internal/storage/space"
)

// KindMessage is the outbox kind of a contact message; its ref is the
// submission id.
const KindMessage = "contact_message"

// Statuses of a Result: CF7's submission statuses.
const (
	StatusValidationFailed  = "validation_failed"
	StatusAcceptanceMissing = "acceptance_missing"
	StatusSpam              = "spam"
	StatusAborted           = "aborted"
	StatusMailSent          = "mail_sent"
	StatusMailFailed        = "mail_failed"
)

// Defaults.
const (
	// DefaultRateLimit submissions per client address (IPv6: per /64) in
	// DefaultRateWindow. Only submissions that passed every other check
	// count, so a visitor correcting a typo does not use the allowance.
	DefaultRateLimit  = 5
	DefaultRateWindow = time.Hour
	// DefaultFileRetention is how long uploaded files are kept; the
	// submission itself stays.
	DefaultFileRetention = 30 * 24 * time.Hour
	// DefaultFilesQuota is the --contact-files-quota-mb default: the
	// bytes of uploaded files kept at most.
	DefaultFilesQuota = 200 << 20
	// MaxValuesPerField bounds the values kept for one field (a checkbox
	// group sends several).
	MaxValuesPerField = 100
	// MaxFilesPerField bounds the files of one file field (CF7's file
	// field takes one; extra ones are refused as too many).
	MaxFilesPerField = 1
	// hashWindow is the time window of posted_data_hash (CF7's 30 minutes).
	hashWindow = 30 * time.Minute
)

// Upload is one uploaded file as the adapter read it. Content may be cut
// short when the file was larger than the adapter reads (Size then holds
// at least the size read, more than the field allows).
type Upload struct {
	Name        string
	ContentType string // as the client declared it; not trusted
	Content     []byte
	Size        int64 // 0: len(Content)
}

func (u Upload) size() int64 { return max(u.Size, int64(len(u.Content))) }

// Submission is one POST of a form.
type Submission struct {
	FormID        int64
	UnitTag       string
	ContainerPost int64
	Values        map[string][]string
	Files         map[string][]Upload
	BotToken      string // _wpcf7_recaptcha_response: the ALTCHA payload
	ClientIP      string
	UserAgent     string
	UserID        int64 // 0 for a visitor
}

// Invalid is one field's error as CF7 reports it.
type Invalid struct {
	Field   string // the reported name (dots turned into underscores)
	Message string
	IDRef   string // the input's HTML id; "" (JSON null): ours have none
	ErrorID string // <unit tag>-ve-<field>
}

// Result is the outcome of a submission.
type Result struct {
	Status         string
	Message        string
	Invalid        []Invalid // only for StatusValidationFailed
	PostedDataHash string    // "" for validation_failed, acceptance_missing and spam
	ID             int64     // the stored submission (mail_sent only)
}

// Stored is a submission as kept for the shop.
type Stored struct {
	ID            int64
	FormID        int64
	UnitTag       string
	ContainerPost int64
	Values        map[string][]string
	ClientIP      string
	UserAgent     string
	UserID        int64
	Status        string // InboxNew, InboxRead, InboxReplied, InboxTrash
	CreatedAt     time.Time
	Files         []StoredFile
	Replies       []Reply // oldest first (filled by reads)
}

// StoredFile is one uploaded file kept with its submission. Content is nil
// once the retention removed it (Purged set).
type StoredFile struct {
	ID      int64
	Field   string
	Name    string // sanitised (SafeFileName)
	MIME    string // detected from the content, never the client's word
	Size    int64
	Content []byte
	Purged  bool
}

// Counts are the store's figures: submissions, files, and the files (and
// their bytes) whose content is still kept.
type Counts struct {
	Submissions, Files, KeptFiles, KeptBytes int64
}

// Store keeps submissions (sqlstore.DB implements it).
type Store interface {
	// InsertContactSubmission stores s with its files and queues its mail
	// (KindMessage, ref the new id) in one transaction. With filesQuota >
	// 0 it first counts the bytes of the files kept (not purged), under a
	// lock every instance takes, and stores nothing when s's files would
	// take them over: a *space.QuotaError.
	InsertContactSubmission(ctx context.Context, s *Stored, filesQuota int64) (int64, error)
	// ContactFileBytes is the bytes of the uploaded files kept (not
	// purged).
	ContactFileBytes(ctx context.Context) (int64, error)
	// ContactSubmission loads a submission with its files and their
	// content (ErrNotFound).
	ContactSubmission(ctx context.Context, id int64) (*Stored, error)
	// PurgeContactFiles removes the content of the files of submissions
	// created before before, keeping their name, type and size; it reports
	// how many files it emptied.
	PurgeContactFiles(ctx context.Context, before, now time.Time) (int64, error)
	HitRateLimits(ctx context.Context, hits []checkout.RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error)

	// The inbox (inbox.go).

	// ContactInbox returns one page of submissions (InboxQuery, already
	// normalised), newest first, with their files (no content) and
	// replies, and their total.
	ContactInbox(ctx context.Context, q InboxQuery) ([]Stored, int, error)
	// ContactCounts counts the submissions by status.
	ContactCounts(ctx context.Context) (map[string]int, error)
	// MarkContactRead moves a new submission to read (nothing otherwise).
	MarkContactRead(ctx context.Context, id int64) error
	// SetContactStatus sets a submission's status (ErrNotFound).
	SetContactStatus(ctx context.Context, id int64, status string) error
	// InsertContactReply stores a reply, marks its submission replied and
	// queues its mail (KindReply, ref the new id) in one transaction;
	// ErrNotFound when the submission is gone, ErrTrashed when it is in
	// the trash.
	InsertContactReply(ctx context.Context, r *Reply) (int64, error)
	// ContactReply loads a reply (ErrNotFound).
	ContactReply(ctx context.Context, id int64) (*Reply, error)
	// DeleteContactSubmission removes a submission in the trash with its
	// files and replies (ErrNotFound, ErrNotTrashed).
	DeleteContactSubmission(ctx context.Context, id int64) error
	// ContactFile loads one file of a submission with its content (nil
	// when purged); ErrNotFound when the submission has no such file.
	ContactFile(ctx context.Context, submissionID, fileID int64) (*StoredFile, error)
}

// Verifier checks the bot-check payload (botcheck.Service for purpose
// "contact"); Refusal tells a refused payload from a failure to check.
type Verifier interface {
	Verify(ctx context.Context, payload string) error
}

// Errors. ErrNotFound and ErrUnitTag are refusals of the request itself
// (the adapter answers 404 and 400), and so are a submission with files
// over the files' quota (space.ErrQuota, 507) or while the disk is low
// (space.ErrDiskLow, 503): nothing else is an error of Submit: every
// outcome, a store failure included, is a Result.
var (
	ErrNotFound = errors.New("contact: no such form or submission")
	ErrUnitTag  = errors.New("contact: no valid unit tag")
)

// Service is the contact form's use case.
type Service struct {
	Store Store
	// Forms are the shop's forms; nil means [contactform.DefaultForm()].
	Forms []contactform.Form
	// Bots verifies the bot-check payload; IsRefusal tells a refusal
	// (spam) from a failure to check (mail_failed).
	Bots      Verifier
	IsRefusal func(error) bool
	// Secret keys posted_data_hash (the shop's secret).
	Secret []byte
	// RateLimit and RateWindow override the defaults when set.
	RateLimit  int
	RateWindow time.Duration
	// FileRetention overrides DefaultFileRetention when set.
	FileRetention time.Duration
	// FilesQuota bounds the bytes of uploaded files the store keeps (0:
	// no bound): a submission whose files would go over it is refused,
	// stored and mailed nowhere. Messages without files are not counted.
	FilesQuota int64
	// Disk refuses submissions with files while the store's disk is low
	// (nil: no check).
	Disk *space.Disk
	// Queued, when set, is called after a reply's mail was queued (the
	// outbox's Kick).
	Queued func()
	Now    func() time.Time
	Log    *slog.Logger
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

func (s *Service) log() *slog.Logger { return cmp.Or(s.Log, discard) }

var discard = slog.New(slog.DiscardHandler)

// forms returns the configured forms, or the default one.
func (s *Service) forms() []contactform.Form {
	if s.Forms == nil {
		return []contactform.Form{contactform.DefaultForm()}
	}
	return s.Forms
}

// Form returns the form with the id.
func (s *Service) Form(id int64) (contactform.Form, bool) {
	for _, f := range s.forms() {
		if f.ID == id {
			return f, true
		}
	}
	return contactform.Form{}, false
}

// Check refuses a set of forms with a bad definition or a repeated id.
func (s *Service) Check() error {
	seen := map[int64]bool{}
	for _, f := range s.forms() {
		if f.ID <= 0 || seen[f.ID] {
			return fmt.Errorf("%w: form id %d is not positive or is used twice", contactform.ErrInvalidForm, f.ID)
		}
		seen[f.ID] = true
		if err := f.Check(); err != nil {
			return fmt.Errorf("form %d: %w", f.ID, err)
		}
	}
	return nil
}

// unitTagPattern is CF7's unit tag: wpcf7-f<form id>[-p<post id>]-o<n>.
var unitTagPattern = regexp.MustCompile(`^wpcf7-f([0-9]{1,18})(?:-p[0-9]{1,18})?-o[0-9]{1,9}$`)

// ValidUnitTag reports whether tag is a unit tag of the form formID.
func ValidUnitTag(tag string, formID int64) bool {
	m := unitTagPattern.FindStringSubmatch(tag)
	return m != nil && m[1] == strconv.FormatInt(formID, 10)
}

// Submit checks and handles a submission in CF7's order: the schema, the
// acceptance checkboxes, the bot-check, the rate limit, then the
// submission and its mail are stored in one transaction. An unknown form
// is ErrNotFound and a bad unit tag ErrUnitTag; every other outcome is a
// Result (a store failure is mail_failed, logged).
func (s *Service) Submit(ctx context.Context, sub Submission) (Result, error) {
	form, ok := s.Form(sub.FormID)
	if !ok {
		return Result{}, ErrNotFound
	}
	if !ValidUnitTag(sub.UnitTag, form.ID) {
		return Result{}, ErrUnitTag
	}
	texts := form.Texts()
	values := formValues(form, sub.Values)

	// 1. The schema, with the files typed by their content.
	files, tooMany := formFiles(form, sub.Files)
	if inv := form.Validate(values, files); len(inv) > 0 || len(tooMany) > 0 {
		return Result{Status: StatusValidationFailed, Message: texts.ValidationError,
			Invalid: s.invalid(sub.UnitTag, inv, tooMany, texts)}, nil
	}
	// 2. Acceptance.
	if form.AcceptanceMissing(values) {
		return Result{Status: StatusAcceptanceMissing, Message: texts.AcceptTerms}, nil
	}
	// 3. The bot-check: a missing, malformed, expired or replayed payload
	// is spam; a failure to check it is mail_failed (fail closed).
	hash := s.postedDataHash(sub.UnitTag, sub.ClientIP, values, files)
	if s.Bots == nil {
		s.log().Error("contact: no bot-check configured")
		return Result{Status: StatusMailFailed, Message: texts.MailSentNG, PostedDataHash: hash}, nil
	}
	if err := s.Bots.Verify(ctx, sub.BotToken); err != nil {
		if s.IsRefusal == nil || s.IsRefusal(err) {
			return Result{Status: StatusSpam, Message: texts.Spam}, nil
		}
		s.log().Error("contact: bot-check unavailable", "err", err)
		return Result{Status: StatusMailFailed, Message: texts.MailSentNG, PostedDataHash: hash}, nil
	}
	// 4. Room for the files: checked before the rate limit, so a visitor
	// refused for the shop's lack of room keeps the allowance.
	var fileBytes int64
	for _, fd := range form.Fields {
		if fd.Kind == contactform.KindFile {
			for _, u := range uploadsOf(sub.Files, fd.Name) {
				fileBytes += int64(len(u.Content))
			}
		}
	}
	if fileBytes > 0 {
		if err := s.roomFor(ctx, fileBytes); errors.Is(err, space.ErrQuota) || errors.Is(err, space.ErrDiskLow) {
			return Result{}, err
		} else if err != nil {
			s.log().Error("contact: count the kept files", "err", err)
			return Result{Status: StatusMailFailed, Message: texts.MailSentNG, PostedDataHash: hash}, nil
		}
	}
	// 5. The rate limit per client address.
	now := s.now()
	limit := checkout.PerAddress("contact:a:", s.RateLimit, DefaultRateLimit, s.RateWindow, DefaultRateWindow)
	wait, ok, err := limit.Hit(ctx, s.Store.HitRateLimits, sub.ClientIP, now)
	if err != nil {
		s.log().Error("contact: rate limit", "err", err)
		return Result{Status: StatusMailFailed, Message: texts.MailSentNG, PostedDataHash: hash}, nil
	}
	if !ok {
		return Result{Status: StatusAborted, Message: LimitedText(wait), PostedDataHash: hash}, nil
	}
	// 6. Store the submission and queue its mail (the store checks the
	// quota again, atomically: concurrent submissions cannot pass it
	// together).
	st := &Stored{FormID: form.ID, UnitTag: sub.UnitTag, ContainerPost: max(sub.ContainerPost, 0), Values: values,
		ClientIP: sub.ClientIP, UserAgent: clip(sub.UserAgent, 500), UserID: max(sub.UserID, 0),
		Status: "new", CreatedAt: now.Truncate(time.Second)}
	for _, fd := range form.Fields {
		if fd.Kind != contactform.KindFile {
			continue
		}
		for _, u := range uploadsOf(sub.Files, fd.Name) {
			st.Files = append(st.Files, StoredFile{Field: fd.Name, Name: SafeFileName(u.Name),
				MIME: contactform.Sniff(u.Content), Size: int64(len(u.Content)), Content: u.Content})
		}
	}
	id, err := s.Store.InsertContactSubmission(ctx, st, s.FilesQuota)
	if errors.Is(err, space.ErrQuota) {
		return Result{}, err
	}
	if err != nil {
		s.log().Error("contact: store the submission", "err", err)
		return Result{Status: StatusMailFailed, Message: texts.MailSentNG, PostedDataHash: hash}, nil
	}
	return Result{Status: StatusMailSent, Message: texts.MailSentOK, PostedDataHash: hash, ID: id}, nil
}

// roomFor refuses files of n bytes while the disk is low or when they
// would take the kept files over the quota. A failure to read the disk is
// a refusal too (fail closed), logged.
func (s *Service) roomFor(ctx context.Context, n int64) error {
	if err := s.Disk.Check(); err != nil {
		if !errors.Is(err, space.ErrDiskLow) {
			s.log().Error("contact: free disk space", "err", err)
		}
		return errors.Join(space.ErrDiskLow, err)
	}
	if s.FilesQuota <= 0 {
		return nil
	}
	used, err := s.Store.ContactFileBytes(ctx)
	if err != nil {
		return err
	}
	if used+n > s.FilesQuota {
		return &space.QuotaError{Used: used, Quota: s.FilesQuota, Size: n}
	}
	return nil
}

// FileUsage is the bytes of uploaded files kept and the quota (0: none),
// for the admin.
func (s *Service) FileUsage(ctx context.Context) (space.Usage, error) {
	used, err := s.Store.ContactFileBytes(ctx)
	return space.Usage{Used: used, Quota: max(s.FilesQuota, 0)}, err
}

// LimitedText is the aborted message of a visitor over the rate limit.
func LimitedText(wait time.Duration) string {
	mins := int((wait + time.Minute - 1) / time.Minute)
	unit := "minutes"
	if mins <= 1 {
		mins, unit = 1, "minute"
	}
	return fmt.Sprintf("You have sent several messages in a short time. Please try again in %d %s.", mins, unit)
}

// PurgeFiles removes the content of the uploaded files older than the
// retention (the upkeep loop calls it); it reports how many it emptied.
func (s *Service) PurgeFiles(ctx context.Context) (int64, error) {
	keep := s.FileRetention
	if keep <= 0 {
		keep = DefaultFileRetention
	}
	now := s.now()
	return s.Store.PurgeContactFiles(ctx, now.Add(-keep), now)
}

// invalid shapes the field errors with CF7's error ids.
func (s *Service) invalid(unitTag string, inv []contactform.Invalid, tooMany []string, texts contactform.Messages) []Invalid {
	out := make([]Invalid, 0, len(inv)+len(tooMany))
	seen := map[string]bool{}
	for _, v := range inv {
		seen[v.Field] = true
		out = append(out, Invalid{Field: v.Field, Message: v.Message, ErrorID: unitTag + "-ve-" + v.Field})
	}
	for _, name := range tooMany {
		if f := contactform.Reported(name); !seen[f] {
			out = append(out, Invalid{Field: f, Message: texts.TooManyItems, ErrorID: unitTag + "-ve-" + f})
		}
	}
	return out
}

// lookupKeys are the names a field's values may come under: its name, the
// name with "[]" (checkbox groups), or the name PHP would have made of it.
func lookupKeys(name string) []string {
	return []string{name, name + "[]", contactform.Reported(name)}
}

// formValues keeps the values of the form's own fields (not files), under
// their names, as valid UTF-8 with CRLF made LF, at most MaxValuesPerField
// each. Hidden fields (_wpcf7…) and names the form does not define are
// dropped: they are neither checked nor stored.
func formValues(form contactform.Form, in map[string][]string) map[string][]string {
	out := map[string][]string{}
	for _, fd := range form.Fields {
		if fd.Kind == contactform.KindFile {
			continue
		}
		for _, k := range lookupKeys(fd.Name) {
			vs, ok := in[k]
			if !ok {
				continue
			}
			if len(vs) > MaxValuesPerField {
				vs = vs[:MaxValuesPerField]
			}
			clean := make([]string, len(vs))
			for i, v := range vs {
				clean[i] = strings.ReplaceAll(strings.ToValidUTF8(v, "\uFFFD"), "\r\n", "\n")
			}
			out[fd.Name] = clean
			break
		}
	}
	return out
}

func uploadsOf(files map[string][]Upload, name string) []Upload {
	for _, k := range lookupKeys(name) {
		if us, ok := files[k]; ok {
			var out []Upload
			for _, u := range us {
				if u.Name != "" || u.size() > 0 {
					out = append(out, u)
				}
			}
			return out
		}
	}
	return nil
}

// formFiles turns the uploads of the form's file fields into what the
// validator sees, typed by their content; it also names the fields sent
// more files than MaxFilesPerField.
func formFiles(form contactform.Form, in map[string][]Upload) (map[string][]contactform.File, []string) {
	out := map[string][]contactform.File{}
	var tooMany []string
	for _, fd := range form.Fields {
		if fd.Kind != contactform.KindFile {
			continue
		}
		us := uploadsOf(in, fd.Name)
		if len(us) > MaxFilesPerField {
			tooMany = append(tooMany, fd.Name)
		}
		for _, u := range us {
			f := contactform.File{Name: u.Name, Size: u.size(), ContentType: u.ContentType}
			if len(u.Content) > 0 {
				f.Sniffed = contactform.Sniff(u.Content)
			}
			out[fd.Name] = append(out[fd.Name], f)
		}
	}
	return out, tooMany
}

// postedDataHash is CF7's posted_data_hash: a keyed hash (HMAC-SHA-256
// under a key derived from the shop's secret, cut to 32 hex digits) of the
// 30-minute window, the client address, the unit tag and the posted values
// and files (names and sizes).
func (s *Service) postedDataHash(unitTag, clientIP string, values map[string][]string, files map[string][]contactform.File) string {
	type fileSum struct {
		Name string `json:"n"`
		Size int64  `json:"s"`
	}
	fs := map[string][]fileSum{}
	for k, v := range files {
		for _, f := range v {
			fs[k] = append(fs[k], fileSum{f.Name, f.Size})
		}
	}
	// encoding/json writes map keys sorted: the same values give the same bytes.
	posted, _ := json.Marshal(struct {
		V map[string][]string  `json:"v"`
		F map[string][]fileSum `json:"f"`
	}{values, fs})
	window := s.now().Unix() / int64(hashWindow/time.Second)
	h := hmac.New(sha256.New, append([]byte("contact-posted-data\x00"), s.Secret...))
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00", window, clientIP, unitTag)
	h.Write(posted)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// SafeFileName is an uploaded file's name as stored and mailed
// (mail.FileName), "file" when nothing is left.
func SafeFileName(name string) string { return mail.FileName(name, "file") }

func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "")
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// sortedFields is used by the renderer: the form's fields in order, the
// stored values' other names after them, sorted.
func sortedFields(form contactform.Form, values map[string][]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, fd := range form.Fields {
		out = append(out, fd.Name)
		seen[fd.Name] = true
	}
	var rest []string
	for k := range values {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
