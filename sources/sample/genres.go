package sample

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genre is a kind of writing: a title, dated facts that lookup and counting
// tasks can ask about, section headings, and the word lists its other
// sentences are drawn from.
type genre struct {
	title    string
	facts    []string
	sections []string
	subj     []string
	verb     []string
	obj      []string
	tail     []string
}

func (g genre) paragraphs(r *rand.Rand, n int) []string {
	return paragraphs(r, n, g.facts, g.subj, g.verb, g.obj, g.tail)
}

var (
	genreNews = genre{"City Approves New Tram Line to the Harbour",
		[]string{"The council voted 31 to 12 in favour of the plan on 3 May 2024.", "Construction is expected to cost 410 million euros.", "The first trams should run in 2027.", "About 45000 passengers a day are expected to use the line."},
		[]string{"The Decision", "Costs", "Reactions", "Next Steps"},
		[]string{"The mayor", "The transport authority", "Local shop owners", "Residents near the route", "The opposition", "Engineers"},
		[]string{"welcomed", "criticised", "questioned", "supported", "studied", "debated"},
		[]string{"the new route", "the construction timetable", "the ticket prices", "the plan", "the budget", "the noise report"},
		[]string{"at a packed meeting", "on Tuesday evening", "after months of delay", "in a public statement", "during the hearing", "this week"}}
	genreStory = genre{"The Lantern Keeper's Daughter",
		[]string{"Mira was born in the winter of 1902.", "Her father kept the lantern for 37 years.", "The storm of 1919 destroyed half of the pier.", "She left the island at the age of 19."},
		[]string{"The Island", "The Storm", "Leaving", "Return"},
		[]string{"Mira", "Her father", "The old fisherman", "The grey cat", "The wind", "Her brother"},
		[]string{"watched", "remembered", "followed", "feared", "loved", "searched for"},
		[]string{"the dark water", "the lantern", "the narrow path", "the last boat", "the empty house", "the distant lights"},
		[]string{"every evening", "without a word", "until dawn", "in the cold rain", "as the tide turned", "long after midnight"}}
	genreReviews = genre{"Customer Reviews: Aero 3 Wireless Headphones",
		[]string{"I bought these in March 2024 for 129 dollars.", "The battery lasted 31 hours in my test.", "After 6 months the left ear cup started to creak.", "Support replaced them within 5 days."},
		[]string{"Sound", "Battery", "Comfort", "Support"},
		[]string{"The sound", "The battery", "The app", "The noise cancelling", "The case", "The microphone"},
		[]string{"impressed", "disappointed", "surprised", "annoyed", "satisfied", "confused"},
		[]string{"me", "my whole family", "my colleagues", "every reviewer I know", "the shop assistant", "my friends"},
		[]string{"on long flights", "at the gym", "in the office", "on the train", "after the update", "from day one"}}
	genreRecipe = genre{"Weeknight Recipes from Our Kitchen",
		[]string{"The lentil soup serves 4 people.", "Bake the bread at 220 degrees for 35 minutes.", "The curry takes 25 minutes from start to finish.", "This collection was first shared in 2021."},
		[]string{"Lentil Soup", "Quick Bread", "Vegetable Curry", "Notes"},
		[]string{"The onions", "The garlic", "The stock", "The dough", "The spices", "The sauce"},
		[]string{"should simmer", "needs to rest", "can be prepared", "tastes better", "should be stirred", "must cool"},
		[]string{"with a pinch of salt", "in a heavy pot", "on low heat", "overnight", "with fresh herbs", "before serving"},
		[]string{"for ten minutes", "until golden", "while you set the table", "as it thickens", "if you have time", "every few minutes"}}
	genreTravel = genre{"Ten Days on the Coast Road",
		[]string{"We drove 1380 kilometres in ten days.", "The ferry to the island left at 7 am.", "The old town walls were built in 1342.", "Our favourite guesthouse cost 64 euros a night."},
		[]string{"Arrival", "The Islands", "The Old Town", "Going Home"},
		[]string{"The road", "Our guide", "The ferry", "The harbour market", "The hostel owner", "The morning light"},
		[]string{"led us past", "showed us", "surprised us with", "took us to", "introduced us to", "reminded us of"},
		[]string{"quiet bays", "olive groves", "a ruined chapel", "fishing villages", "the best seafood", "steep vineyards"},
		[]string{"on the second day", "before sunset", "in the pouring rain", "for the last time", "after a long climb", "on a whim"}}
	genreScience = genre{"How Solar Panels Turn Light into Power",
		[]string{"The photovoltaic effect was first observed in 1839.", "A typical panel converts about 21 percent of sunlight into electricity.", "Panels lose roughly 0.5 percent of output per year.", "Global solar capacity passed 1000 gigawatts in 2022."},
		[]string{"Light and Electrons", "Efficiency", "Ageing", "The Future"},
		[]string{"Silicon cells", "Photons", "The inverter", "Researchers", "Thin-film panels", "Heat"},
		[]string{"absorb", "release", "convert", "reduce", "improve", "limit"},
		[]string{"sunlight", "free electrons", "direct current", "the efficiency", "the output", "the cost per watt"},
		[]string{"on a clear day", "in hot climates", "over many years", "in the laboratory", "at scale", "in winter"}}
	genreSpeech = genre{"Graduation Address to the Class of 2024",
		[]string{"This school was founded in 1958.", "This year 412 students graduate.", "Our robotics team won the national title in 2023.", "Twelve of you will study abroad next year."},
		[]string{"Welcome", "Looking Back", "Advice", "Farewell"},
		[]string{"Your teachers", "Your families", "This class", "Every one of you", "Our community", "The future"},
		[]string{"believed in", "celebrated", "challenged", "supported", "inspired", "will remember"},
		[]string{"your curiosity", "your hard work", "your kindness", "each other", "this moment", "the small victories"},
		[]string{"every single day", "through the difficult months", "with great pride", "today", "for years to come", "wherever you go"}}
	genreMinutes = genre{"Minutes of the Product Planning Meeting",
		[]string{"The meeting took place on 12 March 2024 with 9 attendees.", "The release date was moved to 30 June 2024.", "The team agreed a budget of 42000 euros for testing.", "Three open bugs block the release."},
		[]string{"Attendees", "Release Plan", "Budget", "Action Items"},
		[]string{"The product owner", "The QA lead", "Marketing", "The design team", "Engineering", "Finance"},
		[]string{"proposed", "reviewed", "approved", "postponed", "questioned", "will prepare"},
		[]string{"the release checklist", "the test plan", "the launch campaign", "the new onboarding flow", "the hiring request", "the roadmap"},
		[]string{"by Friday", "before the next meeting", "in the next sprint", "after the review", "with the vendor", "for the board"}}
	genreReport = genre{"Quarterly Business Report Q2 2024",
		[]string{"Revenue reached 8.4 million dollars in the quarter.", "The company hired 37 new employees.", "Customer churn fell to 3.1 percent.", "The new warehouse opened in May 2024.", "Operating costs rose by 6 percent.", "Online sales made up 44 percent of the total."},
		[]string{"Quarterly Business Report Q2 2024", "Sales and Customers", "Operations and Outlook"},
		[]string{"The sales team", "Our online shop", "The operations group", "The board", "Key accounts", "The support desk"},
		[]string{"exceeded", "delivered", "expanded", "reviewed", "reduced", "improved"},
		[]string{"the quarterly targets", "new markets", "the delivery times", "the product range", "costs", "customer satisfaction"},
		[]string{"in the second quarter", "despite higher prices", "in Europe", "for the first time", "ahead of plan", "across all regions"}}
	genreResearch = genre{"Research Summary: Urban Trees and Summer Heat",
		[]string{"The study measured 240 streets in 2023.", "Streets with trees were 2.8 degrees cooler at noon.", "Tree cover ranged from 4 to 61 percent.", "The survey ran from June to August."},
		[]string{"Research Summary: Urban Trees and Summer Heat", "Methods and Results", "Conclusions"},
		[]string{"Tree canopy", "Asphalt", "The sensors", "The researchers", "Shaded streets", "Dense neighbourhoods"},
		[]string{"lowered", "raised", "recorded", "compared", "predicted", "explained"},
		[]string{"surface temperatures", "air temperature", "energy use", "night-time heat", "the cooling effect", "pedestrian comfort"},
		[]string{"during heat waves", "at midday", "across the city", "in older districts", "over three summers", "in every season"}}
)

func textFile(g genre, n int) func(*rand.Rand) ([]byte, error) {
	return func(r *rand.Rand) ([]byte, error) {
		return []byte(g.title + "\n\n" + strings.Join(g.paragraphs(r, n), "\n\n") + "\n"), nil
	}
}

// markdownFile writes sections with headings, one bullet list and one table.
func markdownFile(g genre, tableHead []string, tableRows func(r *rand.Rand) [][]string) func(*rand.Rand) ([]byte, error) {
	return func(r *rand.Rand) ([]byte, error) {
		var b strings.Builder
		b.WriteString("# " + g.title + "\n\n")
		ps := g.paragraphs(r, len(g.sections))
		for i, s := range g.sections {
			fmt.Fprintf(&b, "## %s\n\n%s\n\n", s, ps[i])
			if i == 0 {
				for k := 0; k < 3; k++ {
					fmt.Fprintf(&b, "- %s %s\n", pick(r, g.verb), pick(r, g.obj))
				}
				b.WriteString("\n")
			}
			if i == 1 {
				b.WriteString("| " + strings.Join(tableHead, " | ") + " |\n|" + strings.Repeat("---|", len(tableHead)) + "\n")
				for _, row := range tableRows(r) {
					b.WriteString("| " + strings.Join(row, " | ") + " |\n")
				}
				b.WriteString("\n")
			}
		}
		return []byte(b.String()), nil
	}
}

// htmlFile writes a page: title, sections, a list of links and a table.
func htmlFile(g genre, host string, links []string, tableHead []string, tableRows func(r *rand.Rand) [][]string) func(*rand.Rand) ([]byte, error) {
	return func(r *rand.Rand) ([]byte, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n</head>\n<body>\n<h1>%s</h1>\n", g.title, g.title)
		ps := g.paragraphs(r, len(g.sections))
		for i, s := range g.sections {
			fmt.Fprintf(&b, "<h2>%s</h2>\n<p>%s</p>\n", s, ps[i])
		}
		b.WriteString("<ul>\n")
		for i, l := range links {
			fmt.Fprintf(&b, "<li><a href=\"https://%s/%d\">%s</a></li>\n", host, i+1, l)
		}
		b.WriteString("</ul>\n<table>\n<tr>")
		for _, h := range tableHead {
			fmt.Fprintf(&b, "<th>%s</th>", h)
		}
		b.WriteString("</tr>\n")
		for _, row := range tableRows(r) {
			b.WriteString("<tr><td>" + strings.Join(row, "</td><td>") + "</td></tr>\n")
		}
		b.WriteString("</table>\n</body>\n</html>\n")
		return []byte(b.String()), nil
	}
}

// pdfFile writes one page per section heading, three paragraphs each.
func pdfFile(g genre) func(*rand.Rand) ([]byte, error) {
	return func(r *rand.Rand) ([]byte, error) {
		ps := g.paragraphs(r, 3*len(g.sections))
		var pages [][]string
		for i, t := range g.sections {
			lines := []string{t, ""}
			for _, p := range ps[i*3 : i*3+3] {
				lines = append(lines, wrap(p, 88)...)
				lines = append(lines, "")
			}
			pages = append(pages, lines)
		}
		return writePDF(pages)
	}
}

func docxFile(g genre, n int) func(*rand.Rand) ([]byte, error) {
	return func(r *rand.Rand) ([]byte, error) { return writeDOCX(g.title, g.paragraphs(r, n)) }
}

// rowsOf makes n table rows from cell makers.
func rowsOf(n int, cells ...func(r *rand.Rand, i int) string) func(*rand.Rand) [][]string {
	return func(r *rand.Rand) [][]string {
		var out [][]string
		for i := 0; i < n; i++ {
			var row []string
			for _, c := range cells {
				row = append(row, c(r, i))
			}
			out = append(out, row)
		}
		return out
	}
}

var genreFiles = []maker{
	{"news_transit.txt", "txt", textFile(genreNews, 6)},
	{"short_story.txt", "txt", textFile(genreStory, 8)},
	{"product_reviews.txt", "txt", textFile(genreReviews, 7)},
	{"travel_journal.txt", "txt", textFile(genreTravel, 6)},
	{"science_explainer.txt", "txt", textFile(genreScience, 5)},
	{"speech_transcript.txt", "txt", textFile(genreSpeech, 6)},
	{"recipe_collection.md", "md", markdownFile(genreRecipe, []string{"Dish", "Minutes", "Servings"},
		rowsOf(4, oneOf("Lentil Soup", "Quick Bread", "Vegetable Curry", "Fried Rice"), intIn(15, 90), intIn(2, 6)))},
	{"travel_tips.md", "md", markdownFile(genreTravel, []string{"Town", "Nights", "Cost"},
		rowsOf(5, oneOf("Porto", "Split", "Kotor", "Nafplio", "Cassis"), intIn(1, 4), intIn(60, 240)))},
	{"project_plan.md", "md", markdownFile(genreMinutes, []string{"Task", "Owner", "Days"},
		rowsOf(5, oneOf("Design", "Build", "Test", "Launch", "Review"), oneOf("Ana", "Ben", "Chen", "Dara"), intIn(2, 20)))},
	{"museum_events.html", "html", htmlFile(genreSpeech, "museum.example.org", []string{"Exhibitions", "Tickets", "Members", "Contact"},
		[]string{"Event", "Date", "Seats"}, rowsOf(5, oneOf("Night Tour", "Family Day", "Curator Talk", "Print Workshop"), isoDate(100, 7, 0), intIn(20, 200)))},
	{"bakery_menu.html", "html", htmlFile(genreRecipe, "bakery.example.com", []string{"Menu", "Order online", "Opening hours"},
		[]string{"Item", "Price", "Calories"}, rowsOf(6, oneOf("Croissant", "Rye Loaf", "Cinnamon Roll", "Baguette", "Scone"), norm(3.5, 1, 1, 2, 0), intIn(180, 420)))},
	{"travel_blog.html", "html", htmlFile(genreTravel, "roadnotes.example.net", []string{"Day 1", "Day 2", "Day 3", "Map", "About"},
		[]string{"Stop", "Km", "Rating"}, rowsOf(6, oneOf("Split", "Hvar", "Makarska", "Dubrovnik", "Kotor"), intIn(20, 220), intIn(1, 5)))},
	{"quarterly_report.pdf", "pdf", pdfFile(genreReport)},
	{"research_summary.pdf", "pdf", pdfFile(genreResearch)},
	{"planning_minutes.docx", "docx", docxFile(genreMinutes, 6)},
	{"headphone_reviews.docx", "docx", docxFile(genreReviews, 5)},
}
