"""The README's library example: the standings of the sample event, dense ranking."""

import duplicate

results = duplicate.read_results("sample_data/big2_event.csv")  # validates
rules = duplicate.Rules(tie_ranking="dense")  # or duplicate.load_rules(path)
scores = duplicate.score(results, rules)  # pandas, Arrow-backed
table = duplicate.standings(results, rules)
print(table[["place", "player", "total", "decided_by"]].head(3))

seating = duplicate.seat_next_round(results, rules, table_size=4)  # .frame, .reports
why = duplicate.explain(results, "P39", rules)  # plain data
print(seating.frame.head(2))
print(why["total"])

written = duplicate.write_table(table, "standings.csv", rules, "standings")
duplicate.write_manifest(
    "run.json",
    command="standings",
    rules=rules,
    outputs=written,
    inputs=[duplicate.input_record("results", "sample_data/big2_event.csv", 1152)],
)
