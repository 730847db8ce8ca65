"""Five jobs with the library alone; each prints what the matching bja command prints."""
import analyzer

game = "1D H17 DOA NDAS SPL1 NS"  # or a named game: "charlie7", "free-bet", ...
ev = analyzer.analyze(game)  # bja ev --rules "1D H17 DOA NDAS SPL1 NS"
print(ev.to_text(), f"EV by upcard (per unit bet): {ev.by_upcard}", sep="\n")
print(analyzer.chart(game).to_text())  # bja chart --rules "..."
grid = analyzer.compare(game, vary=["S17|H17", "-|BJ6:5"], charts=False)
print(grid.to_text())  # bja compare --base "..." --vary "S17|H17" --vary "-|BJ6:5" --no-chart
print(analyzer.sidebet("21+3", decks=1).to_text())  # bja sidebet 21+3 --decks 1
cert = analyzer.certify(game, out="certificate", pdf=False, exact=False, rounds=100_000)
print(f"certificate RTP {float(cert.rtp):.6%}", *cert.written, sep="\n")  # bja certify
print(grid.to_frame()[["row", "axis1", "axis2", "ev"]])  # pandas: bja-analyzer[frames]
