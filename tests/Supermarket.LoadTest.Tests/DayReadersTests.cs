using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Tests;

public sealed class DayReadersTests
{
    [Fact]
    public async Task The_questions_asked_during_the_warm_up_are_left_out_of_their_figures()
    {
        var options = LoadOptions.Parse(["--sales-queries-per-second", "100"]);
        var readers = new DayReaders(new HttpClient(new CountingHandler()) { BaseAddress = options.Url }, options);
        using var stop = new CancellationTokenSource(TimeSpan.FromMilliseconds(500));

        await readers.RunAsync(stop.Token).WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken);

        Assert.NotEmpty(readers.Figures(warmUpSeconds: 0));
        Assert.Empty(readers.Figures(warmUpSeconds: 60));
    }
}
