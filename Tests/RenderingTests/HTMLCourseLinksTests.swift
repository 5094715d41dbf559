import Foundation
@testable import Rendering
import Simulation
import Testing
import Trace

/// The course folder (`export --all --html`): the index numbers the lessons in course order, says
/// where to start and what each lesson shows; a lesson's page links to the lessons before and after
/// it, and a lesson named in its `try_next` is a link to that lesson's page.
@Suite("HTML course: numbered index, previous and next lesson, try_next links")
struct HTMLCourseLinksTests {
    @Test func theIndexNumbersTheLessonsInCourseOrderAndSaysWhereToStart() {
        let index = HTMLIndexPage().render(
            runs: [.init(name: "rsa", title: "RSA", file: "rsa.html")],
            lessons: [.init(name: "tcp/a", title: "A", file: "tcp/a.html", topic: "tcp", kind: "tcp", summary: "The first lesson."),
                      .init(name: "tcp/b", title: "B", file: "tcp/b.html", topic: "tcp", kind: "tcp", summary: "The second."),
                      .init(name: "tls/c", title: "C", file: "tls/c.html", topic: "tls", kind: "tls", summary: "The third.")])
        #expect(index.contains("<ol class=\"course\" start=\"1\">"))
        // Numbering runs on through the topics: the TLS section starts at 3.
        #expect(index.contains("<ol class=\"course\" start=\"3\">"))
        #expect(HTMLRendererTests.count("start here", in: index) == 1)
        let start = index.range(of: "start here")!.lowerBound
        #expect(index.range(of: ">A</a>")!.lowerBound < start && start < index.range(of: ">B</a>")!.lowerBound, "the first lesson is where to start")
        #expect(index.contains("<span class=\"summary\">The first lesson.</span>"))
    }

    @Test func theFirstSentenceOfADescriptionIsItsSummary() {
        #expect(HTMLIndexPage.firstSentence("A SYN is lost. The client retransmits it.") == "A SYN is lost.")
        #expect(HTMLIndexPage.firstSentence("Version 1.2 is used.\nMore.") == "Version 1.2 is used.")
        #expect(HTMLIndexPage.firstSentence("客户端的 SYN 丢失了。它重传。") == "客户端的 SYN 丢失了。")
    }

    @Test func aLessonPageLinksItsNeighboursAndTheLessonsItsTryNextNames() throws {
        var page = LessonPage(name: "tcp/b", kind: "tcp", title: "B", description: "B.", checks: [],
                              tryNext: ["Allow it for one host (ats/http-exception); not ats/unknown."], isDemo: true)
        page.previous = .init(name: "tcp/a", title: "Lesson <A>", href: "../tcp/a.html")
        page.next = .init(name: "tls/c", title: "C", href: "../tls/c.html")
        page.pages = ["ats/http-exception": "../ats/http-exception.html"]
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let html = HTMLRenderer().page(name: "tcp/b", trace: trace, lesson: page)
        #expect(html.contains("<a rel=\"prev\" href=\"../tcp/a.html\">← Previous lesson: Lesson &lt;A&gt;</a>"))
        #expect(html.contains("<a rel=\"next\" href=\"../tls/c.html\">Next lesson: C →</a>"))
        #expect(html.contains("(<a href=\"../ats/http-exception.html\">ats/http-exception</a>)"))
        #expect(html.contains("not ats/unknown."), "a name without a page stays text")
        // A page exported alone has no course links.
        page.previous = nil
        page.next = nil
        let alone = HTMLRenderer().page(name: "tcp/b", trace: trace, lesson: page)
        #expect(!alone.contains("rel=\"prev\"") && !alone.contains("rel=\"next\""))
    }
}
