"""`duplicate validate`: check a results file and list every problem."""

from __future__ import annotations

import typer

from duplicate.cli.common import DealScopeOpt, EncodingOpt, ResultsArg, reports_errors, stderr


def register(app: typer.Typer) -> None:
    app.command(name="validate")(validate)


@reports_errors
def validate(
    results: ResultsArg,
    encoding: EncodingOpt = None,
    deal_scope: DealScopeOpt = None,
) -> None:
    """Check a results file without scoring it; exit 0 when clean, 1 listing every problem.

    Example: duplicate validate results.csv
    """
    from duplicate.io.read import read_results, source_name

    data = read_results(results, encoding, deal_scope.value if deal_scope else "round")
    frame = data.frame
    stderr.print(
        f"{source_name(results)}: {len(frame)} results, "
        f"{frame[['section', 'player']].drop_duplicates().shape[0]} players, "
        f"{frame[['section', 'round', 'deal']].drop_duplicates().shape[0]} deals: no problems",
        markup=False,
    )
