"""The benchmarks and their generators: ``companion bench NAME`` loads them by module name
(``companion.commands.bench.BENCHES``). The table's service never imports this package."""
