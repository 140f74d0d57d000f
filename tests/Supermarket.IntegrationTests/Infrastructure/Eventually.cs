namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>Waits for an asynchronous pipeline to reach a state, bounded in time. Not a timing assertion: the
/// bound is generous and only keeps a broken pipeline from hanging the suite.</summary>
public static class Eventually
{
    public static async Task<T> UntilAsync<T>(Func<Task<T>> probe, Func<T, bool> done, TimeSpan? within = null)
    {
        var deadline = DateTime.UtcNow + (within ?? TimeSpan.FromSeconds(30));
        while (true)
        {
            var value = await probe();
            if (done(value) || DateTime.UtcNow > deadline)
            {
                return value;
            }

            await Task.Delay(100);
        }
    }
}
