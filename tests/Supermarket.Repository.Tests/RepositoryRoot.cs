namespace Supermarket.Repository.Tests;

/// <summary>The clone these checks read: the folder with Supermarket.sln above the test program.</summary>
public static class RepositoryRoot
{
    public static readonly string Path = Supermarket.LoadTest.Repository.Root()
        ?? throw new InvalidOperationException("Supermarket.sln not found above the test folder.");
}
