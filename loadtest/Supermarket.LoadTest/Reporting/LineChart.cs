using System.Globalization;
using static System.FormattableString;
using System.Net;
using System.Text;

namespace Supermarket.LoadTest.Reporting;

/// <summary>A line of a chart: its name in the legend, its colour and its points (x, value).</summary>
public sealed record ChartSeries(string Name, string Color, IReadOnlyList<(double X, double Y)> Points);

/// <summary>A moment marked across a chart, such as a time zone opening.</summary>
public sealed record ChartMarker(double X, string Label);

/// <summary>
/// A line chart, over the run's seconds unless told otherwise, drawn as inline SVG: axes with ticks and units, a
/// legend, dashed markers and a shaded warm-up. SVG rather than a JavaScript charting library because the report must open offline as one file
/// and print, and because every point and label is then in the page's DOM, where the report's browser test finds
/// them. Each point carries a tooltip with its value.
/// </summary>
public sealed class LineChart(string title, string yAxis, IReadOnlyList<ChartSeries> series)
{
    private const double Width = 920, Height = 300, Left = 72, Right = 16, Top = 16, Bottom = 64;

    public IReadOnlyList<ChartMarker> Markers { get; init; } = [];

    /// <summary>What the x axis counts, and its unit in a point's tooltip.</summary>
    public (string Label, string Unit) XAxis { get; init; } = ("seconds since the first POST", "s");

    /// <summary>The warm-up's end, in seconds: shaded from zero.</summary>
    public double WarmUpSeconds { get; init; }

    public bool HasData => series.Any(line => line.Points.Count > 0);

    public string Render()
    {
        var points = series.SelectMany(line => line.Points).ToList();
        var (xMax, xStep) = Axis(Math.Max(1, points.Count == 0 ? 1 : points.Max(p => p.X)));
        var (yMax, yStep) = Axis(Math.Max(points.Count == 0 ? 1 : points.Max(p => p.Y), 1e-9));
        double X(double x) => Left + (x / xMax * (Width - Left - Right));
        double Y(double y) => Height - Bottom - (y / yMax * (Height - Top - Bottom));

        var svg = new StringBuilder()
            .Append(Invariant($"<figure class=\"chart\"><figcaption>{Encode(title)}</figcaption>"))
            .Append(Invariant($"<svg viewBox=\"0 0 {Width} {Height}\" width=\"{Width}\" height=\"{Height}\" role=\"img\" aria-label=\"{Encode(title)}\">"));
        if (WarmUpSeconds > 0)
        {
            svg.Append(Invariant($"<rect class=\"warm-up\" x=\"{Left}\" y=\"{Top}\" width=\"{X(Math.Min(WarmUpSeconds, xMax)) - Left:F1}\" height=\"{Height - Top - Bottom}\"><title>warm-up, left out of the statistics</title></rect>"));
        }

        foreach (var tick in Ticks(yMax, yStep))
        {
            svg.Append(Invariant($"<line class=\"grid\" x1=\"{Left}\" x2=\"{Width - Right}\" y1=\"{Y(tick):F1}\" y2=\"{Y(tick):F1}\"/>"))
                .Append(Invariant($"<text class=\"tick y\" x=\"{Left - 6}\" y=\"{Y(tick) + 4:F1}\">{Format(tick)}</text>"));
        }

        foreach (var tick in Ticks(xMax, xStep))
        {
            svg.Append(Invariant($"<text class=\"tick x\" x=\"{X(tick):F1}\" y=\"{Height - Bottom + 16}\">{Format(tick)}</text>"));
        }

        svg.Append(Invariant($"<line class=\"axis\" x1=\"{Left}\" x2=\"{Left}\" y1=\"{Top}\" y2=\"{Height - Bottom}\"/>"))
            .Append(Invariant($"<line class=\"axis\" x1=\"{Left}\" x2=\"{Width - Right}\" y1=\"{Height - Bottom}\" y2=\"{Height - Bottom}\"/>"))
            .Append(Invariant($"<text class=\"axis-label x\" x=\"{(Left + Width - Right) / 2}\" y=\"{Height - Bottom + 34}\">{Encode(XAxis.Label)}</text>"))
            .Append(Invariant($"<text class=\"axis-label y\" transform=\"translate(16 {(Top + Height - Bottom) / 2}) rotate(-90)\">{Encode(yAxis)}</text>"));

        foreach (var marker in Markers.Where(marker => marker.X <= xMax))
        {
            svg.Append(Invariant($"<line class=\"marker\" x1=\"{X(marker.X):F1}\" x2=\"{X(marker.X):F1}\" y1=\"{Top}\" y2=\"{Height - Bottom}\"><title>{Encode(marker.Label)} at {marker.X:F1} s</title></line>"))
                .Append(Invariant($"<text class=\"marker-label\" x=\"{X(marker.X) + 4:F1}\" y=\"{Top + 12}\">{Encode(marker.Label)}</text>"));
        }

        var legendX = Left;
        foreach (var line in series)
        {
            svg.Append(Invariant($"<g class=\"series\" data-series=\"{Encode(line.Name)}\">"))
                .Append(Invariant($"<polyline fill=\"none\" stroke=\"{line.Color}\" stroke-width=\"1.8\" points=\"{string.Join(' ', line.Points.Select(p => Invariant($"{X(p.X):F1},{Y(p.Y):F1}")))}\"/>"));
            foreach (var (x, y) in line.Points)
            {
                svg.Append(Invariant($"<circle class=\"point\" cx=\"{X(x):F1}\" cy=\"{Y(y):F1}\" r=\"2\" fill=\"{line.Color}\"><title>{Encode(line.Name)}: {Format(y)} {Encode(yAxis)} at {x.ToString("#,0.#", CultureInfo.InvariantCulture)} {Encode(XAxis.Unit)}</title></circle>"));
            }

            svg.Append("</g>")
                .Append(Invariant($"<rect class=\"legend\" x=\"{legendX}\" y=\"{Height - 16}\" width=\"12\" height=\"4\" fill=\"{line.Color}\"/>"))
                .Append(Invariant($"<text class=\"legend\" x=\"{legendX + 16}\" y=\"{Height - 11}\">{Encode(line.Name)}</text>"));
            legendX += 24 + (line.Name.Length * 7);
        }

        return svg.Append("</svg></figure>").ToString();
    }

    /// <summary>An axis from zero to the highest value: a round step (1, 2 or 5 times a power of ten) that reaches it
    /// in at most six, and the top, the first step at or above it.</summary>
    public static (double Top, double Step) Axis(double highest)
    {
        var power = Math.Pow(10, Math.Floor(Math.Log10(highest / 5)));
        var step = new[] { 1, 2, 5, 10 }.Select(multiple => multiple * power).First(step => step * 6 >= highest * 0.9999);
        return (Math.Ceiling((highest * 0.9999) / step) * step, step);
    }

    private static IEnumerable<double> Ticks(double top, double step) =>
        Enumerable.Range(0, (int)Math.Round(top / step) + 1).Select(i => i * step);

    private static string Format(double value) =>
        value.ToString(Math.Abs(value) >= 100 || value == Math.Floor(value) ? "N0" : "0.##", CultureInfo.InvariantCulture);

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
