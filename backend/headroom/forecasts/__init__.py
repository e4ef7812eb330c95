"""Traffic forecasts of datasets: hourly forecast, growth, cycles, runway to the limit the
dataset's capacity analysis gives (docs/methods/forecast.md)."""
