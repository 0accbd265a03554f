package vaultgen

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// proseWords is the vocabulary used for paragraph text: a few hundred
// common English words. Earlier entries are drawn more often (see
// renderer.word), which gives the text a mildly Zipfian word frequency.
var proseWords = strings.Fields(`
the of and to in is that it for was on are as with be at this have from or
by one had not but what all were when we there can an your which their said
if do will each about how up out them then she many some so these would other
into has more her two like him see time could no make than first been its who
now people my made over did down only way find use may water long little very
after words called just where most know get through back much before go good
new write our used me man too any day same right look think also around another
came come work three word must because does part even place well such here take
why things help put years different away again off went old number great tell
men say small every found still between name should home big give air line set
own under read last never us left end along while might next sound below saw
something thought both few those always looked show large often together asked
house world going want school important until form food keep children feet land
side without boy once animals life enough took sometimes four head above kind
began almost live page got earth need far hand high year mother light parts
country father let night following picture being study second eyes soon times
story boys since white days ever paper hard near sentence better best across
during today others however sure means knew try told young miles sun ways thing
whole hear example heard several change answer room sea against top turned learn
point city play toward five using himself usually money seen car morning
given trees idea project meeting research garden design system notes review
draft plan graph vault link network model data method theory reading book
article journal habit focus process writing language memory music travel coffee
recipe budget health sleep running code server client query index cache signal
pattern context question insight summary outline decision strategy experiment
`)

// nonASCIIWords are sprinkled into prose, for full-text search and
// Unicode handling.
var nonASCIIWords = []string{
	"café", "naïve", "東京", "résumé", "über", "façade", "jalapeño", "zürich",
	"crème", "brûlée", "déjà", "vu", "smörgåsbord", "piñata", "fiancée",
	"москва", "αλφάβητο", "北京", "日本語", "데이터", "straße", "coöperate",
}

// titleWords are the words titles are built from.
var titleWords = strings.Fields(`
project meeting research garden design system notes review draft plan graph
vault link network model data method theory reading book article journal habit
focus process writing language memory music travel coffee recipe budget health
sleep running code server client query index cache signal pattern context
question insight summary outline decision strategy experiment idea house world
school food land life earth country father mother night picture study story
paper sentence example answer room sea city play money morning trees animals
water words number sound home air line word part place thing things people
weekly monthly daily quarterly annual personal team product market customer
sales growth hiring onboarding roadmap retrospective standup interview lecture
course chapter lesson exercise workout diet finance taxes insurance mortgage
vacation trip flight hotel camping hiking cycling photography painting drawing
guitar piano poetry novel essay podcast video movie series archive inbox
template checklist glossary timeline overview analysis proposal specification
architecture database migration release deployment incident postmortem
security performance testing benchmark parser compiler kernel protocol api
frontend backend mobile cloud storage search ranking embedding vector
quantum biology chemistry physics history philosophy economics psychology
stoicism mindfulness productivity zettelkasten evergreen literature fleeting
permanent concept principle heuristic framework mental models bias fallacy
argument evidence hypothesis result conclusion reference source quote
highlight annotation backlog sprint milestone goal objective key
metric dashboard report memo letter email contact person friend family
birthday gift wishlist shopping grocery kitchen bread pasta soup salad
`)

// folderWords are the base names of folders.
var folderWords = strings.Fields(`
Projects Areas Resources Archive Journal Daily People Meetings Research Reading
Books Articles Recipes Travel Work Personal Ideas Drafts Inbox Courses Health
Finance Code Writing Topics Maps Literature Zettelkasten Clients Teams Family
Hobbies Music Movies Podcasts Photos Papers Lectures Talks Reviews Goals Habits
Learning Languages History Science Design Product Engineering Ops Sales Marketing
Hiring Planning Reports Snippets Howtos Guides Reference Glossary Someday Later
`)

// nonASCIIFolders are occasional folder names with non-ASCII characters.
var nonASCIIFolders = []string{"Café", "日記", "Zürich", "Résumés", "Ideas ✨", "Москва"}

// folderModifiers are prepended to folder names when a bare name is taken.
var folderModifiers = strings.Fields(`
Old New Shared Private Team Client Active Future Past Current Open Closed
Weekly Monthly Quarterly Annual Deep Quick Misc Core Extra
`)

// nonASCIITitleWords start non-ASCII titles such as "Café Notes".
var nonASCIITitleWords = []string{
	"Café", "Naïve", "東京", "Zürich", "Résumé", "Crème", "Über", "Москва",
	"São", "Niño", "Fiancée", "Smörgåsbord", "北京", "日本語", "Déjà", "Piñata",
	"Façade", "Kraków", "Málaga", "Ελλάδα", "서울", "Straße",
}

// emojis end some non-ASCII titles such as "Ideas 🚀".
var emojis = []string{"🚀", "📚", "🌱", "🎯", "💡", "🔥", "☕"}

// headingWords are section headings. A note's headings are distinct
// entries of this list, so [[Note#Heading]] links can point at them.
var headingWords = []string{
	"Overview", "Background", "Context", "Summary", "Details", "Notes",
	"Next Steps", "Open Questions", "Ideas", "References", "Log", "Tasks",
	"Decisions", "Action Items", "Key Points", "Highlights", "Quotes",
	"Examples", "Problems", "Solutions", "Results", "Discussion", "Timeline",
	"Resources", "Thoughts", "Takeaways", "Goals", "Risks", "Status",
	"Agenda", "Attendees", "Follow Up", "Questions", "Method", "Findings",
	"Sources", "Journal", "Review", "Plan", "Café Notes", "Résumé",
}

// tagWords are flat and nested tags, most common first.
var tagWords = []string{
	"idea", "todo", "project", "reading", "meeting", "status/active",
	"project/alpha", "review", "draft", "important", "research",
	"type/meeting", "area/work", "personal", "work", "status/done",
	"project/beta", "learning", "health", "area/health", "topic/go",
	"reference", "book", "type/person", "finance", "journal",
	"reading/book", "reading/article", "status/waiting", "travel",
	"topic/design", "recipe", "topic/ml", "evergreen", "someday",
	"type/book", "year/2024", "inbox", "café", "東京/trip",
}

// hashTags are tagWords with a leading '#', precomputed for prose.
var hashTags = func() []string {
	out := make([]string, len(tagWords))
	for i, t := range tagWords {
		out[i] = "#" + t
	}
	return out
}()

// capitalized returns words with their first letter upper-cased.
func capitalized(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = capitalize(w)
	}
	return out
}

// capitalize upper-cases the first rune of s.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

var (
	proseWordsCap    = capitalized(proseWords)
	nonASCIIWordsCap = capitalized(nonASCIIWords)
	titleWordsCap    = capitalized(titleWords)
)

// calloutKinds are Obsidian callout types.
var calloutKinds = []string{"note", "tip", "info", "warning", "todo", "quote", "example"}

// statuses fill table cells and frontmatter.
var statuses = []string{"active", "done", "waiting", "someday", "blocked"}

// codeSnippets are fenced code blocks. Each contains text that looks like a
// wikilink and a tag but, being code, is neither.
var codeSnippets = []string{
	"```go\n// See [[not a link]] before changing this. #notatag\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n",
	"```python\n# TODO [[not a link]] #notatag\ndef score(x):\n    return x * 2\n```\n",
	"```bash\n# grep for [[not a link]] and #notatag\ngrep -rn 'TODO' . | wc -l\n```\n",
	"```\n[[not a link]]\n#notatag\nplain text in a fence\n```\n",
	"```js\nconst s = \"[[not a link]]\"; // #notatag\nconsole.log(s.length);\n```\n",
}

// tildeFences are ~~~ fenced blocks of list-shaped text, again no links.
var tildeFences = []string{
	"~~~\n- [[not a link]]\n- [[also not a link|alias]]\n- #notatag\n~~~\n",
	"~~~markdown\n1. ![[not a link]]\n2. #notatag/nested\n~~~\n",
}

// reservedNames are link-like strings used inside code, which no note may
// have: a parser that counts them shows a broken link.
var reservedNames = []string{"not a link", "also not a link", "inline not a link"}

// uniqueFolderName returns and records a name not in used (any case).
func uniqueFolderName(r *rand.Rand, used map[string]bool) string {
	for try := 0; ; try++ {
		var name string
		switch {
		case r.Float64() < 0.02:
			name = nonASCIIFolders[r.IntN(len(nonASCIIFolders))]
		case try < 2:
			name = folderWords[r.IntN(len(folderWords))]
		case try < 10:
			name = folderModifiers[r.IntN(len(folderModifiers))] + " " + folderWords[r.IntN(len(folderWords))]
		default:
			name = folderWords[r.IntN(len(folderWords))] + " " + strconv.Itoa(try)
		}
		key := strings.ToLower(name)
		if !used[key] {
			used[key] = true
			return name
		}
	}
}

// asciiTitle returns 1–4 capitalised title words. Later tries use longer
// titles and, eventually, a numeric suffix so that a free name is found.
func asciiTitle(r *rand.Rand, try int) string {
	u, k := r.Float64(), 1 // 15% one word, 45% two, 30% three, 10% four
	for _, p := range []float64{0.15, 0.60, 0.90} {
		if u >= p {
			k++
		}
	}
	switch {
	case try >= 30:
		k = 3 // plus a number: still at most four words
	case try >= 8:
		k = max(k, 3)
	}
	words := make([]string, 0, 4)
	var picked [4]int
	for j := range k {
		w := r.IntN(len(titleWordsCap))
		for slices.Contains(picked[:j], w) { // no "Plan Plan"
			w = r.IntN(len(titleWordsCap))
		}
		picked[j] = w
		words = append(words, titleWordsCap[w])
	}
	if try >= 30 {
		words = append(words, strconv.Itoa(try))
	}
	return strings.Join(words, " ")
}

// nonASCIITitle returns a title such as "Café Notes" or "Ideas 🚀".
func nonASCIITitle(r *rand.Rand) string {
	w := func() string { return titleWordsCap[r.IntN(len(titleWordsCap))] }
	switch r.IntN(3) {
	case 0:
		return nonASCIITitleWords[r.IntN(len(nonASCIITitleWords))] + " " + w()
	case 1:
		return w() + " " + emojis[r.IntN(len(emojis))]
	default:
		return w() + " " + nonASCIITitleWords[r.IntN(len(nonASCIITitleWords))] + " " + w()
	}
}
