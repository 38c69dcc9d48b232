"""The library: the sample event read once, its standings, one place explained, the next
round seated, the standings published with a manifest, and a bad file's problems."""

import duplicate

# Any source a command takes; settings by keyword, as the command line's options.
event = duplicate.load_event(
    "sample_data/big2_event.csv",
    players="docs/examples/spring-players.csv",
    tie_ranking="dense",
)
table = duplicate.standings(event)  # a Table: .frame (pandas), .arrow(), .rules
print(table.frame[["place", "player", "name", "decided_by", "total"]].head(3))

why = duplicate.explain(event, "Player 47")  # an id, or a name from the players file
print(why.place, why.total, why.above.player, why.above.criterion, why.above.by)

seating = duplicate.seat(event, table_size=4)
print(seating.reports[0])

for written in duplicate.publish(table, "standings.csv", manifest="run.json"):
    print(written.path, written.rows)

try:
    duplicate.score("tests/data/bad/score_not_number.csv")
except duplicate.InvalidData as error:
    for problem in error.problems:
        print(problem.code, problem.rows, problem.column)
