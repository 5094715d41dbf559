import Foundation
@testable import Rendering
import Simulation
import Testing
import Trace

/// Every arrow on the page joins the rails of the two parties the JSON export names for its event
/// (`"direction": "client->attacker"`): the picture cannot disagree with the data, on any built-in
/// run (with or without an attacker, losses or several connections).
@Suite("HTML page: every arrow on its parties' rails, as the JSON directions say")
struct HTMLArrowRailTests {
    @Test(arguments: BuiltInRun.allCases)
    func everyArrowJoinsTheRailsOfItsJSONDirection(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let html = HTMLRenderer().page(name: run.rawValue, trace: trace)
        var rails: [String: Double] = [:]
        for m in html.matches(of: /<line class="rail" data-actor="([a-z]+)" x1="([0-9.]+)"/) {
            rails[String(m.output.1)] = Double(m.output.2)
        }
        #expect(rails["client"] != nil && rails["server"] != nil)
        let json = JSONLinesRenderer()
        var arrows = 0
        for m in html.matches(of: /<g class="row[^"]*" id="row-\d+" data-step="\d+" data-event="(\d+)"[^>]*>\n<title>[^<]*<\/title>\n<rect[^>]*\/>\n<line class="arrow( lost)?" x1="([0-9.]+)" y1="[0-9.]+" x2="([0-9.]+)"/) {
            let index = try #require(Int(m.output.1))
            let lost = m.output.2 != nil
            let x1 = try #require(Double(m.output.3)), x2 = try #require(Double(m.output.4))
            let event = trace.events[index]
            let fields = try #require(json.fields(event, participants: trace.participants), "event \(index) has a JSON line")
            guard let value = fields.first(where: { $0.0 == "direction" })?.1, case .string(let direction) = value else {
                Issue.record("\(run): event \(index) is drawn as an arrow but its JSON line has no direction: \(JSONObject(fields).text)")
                continue
            }
            let ends = direction.split(separator: "-").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ">")) }
            guard ends.count == 2, let from = rails[ends[0]], let to = rails[ends[1]] else {
                Issue.record("\(run): event \(index)'s direction \(direction) names a party without a rail")
                continue
            }
            arrows += 1
            // A segment an attacker injects carries another party's addresses; its arrow starts at the sender it really has.
            var start = from
            if let by = fields.first(where: { $0.0 == "injected_by" })?.1, case .string(let sender) = by, let rail = rails[sender] { start = rail }
            #expect(x1 == start, "\(run): event \(index) (\(direction)) starts on its sender's rail: \(JSONObject(fields).text)")
            // The arrow stops just short of the receiver's rail, or half-way when the network lost it.
            let end = lost ? (from + to) / 2 : to - (to > from ? 3 : -3)
            #expect(abs(x2 - end) < 0.01, "\(run): event \(index) (\(direction)) ends at the \(ends[1])'s rail")
        }
        #expect(arrows > 0, "\(run): arrows were found")
    }
}
