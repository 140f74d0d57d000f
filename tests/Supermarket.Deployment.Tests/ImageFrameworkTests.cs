using System.Text.Json;
using System.Text.RegularExpressions;

namespace Supermarket.Deployment.Tests;

/// <summary>
/// The deployment runs here on stand-ins for Microsoft's images (scripts/containers.sh), so nothing here starts the
/// official runtime image users elsewhere get: check that it provides every shared framework each deployable's
/// runtimeconfig.json names, at the version it names. (The workers once needed ASP.NET Core while compose ran them on
/// the plain .NET runtime image: they could not have started.)
/// </summary>
public sealed partial class ImageFrameworkTests
{
    // What Microsoft's images hold: runtime is .NET alone; aspnet adds ASP.NET Core.
    private static readonly Dictionary<string, string[]> FrameworksByImage = new()
    {
        ["mcr.microsoft.com/dotnet/runtime"] = ["Microsoft.NETCore.App"],
        ["mcr.microsoft.com/dotnet/aspnet"] = ["Microsoft.NETCore.App", "Microsoft.AspNetCore.App"],
    };

    // Once each: the writer's image is built for the writers and for the schema-migration step alike.
    public static TheoryData<string> Deployables() => [.. ComposeFile.BuiltApps().Distinct()];

    [Fact]
    public void Every_deployable_of_the_solution_has_an_image()
    {
        Assert.Equal(
            ["Supermarket.Api", "Supermarket.LoadTest", "Supermarket.PurchasesWriter", "Supermarket.SalesAggregator"],
            ComposeFile.BuiltApps().Distinct().Order());
    }

    [Theory]
    [MemberData(nameof(Deployables))]
    public void The_runtime_image_provides_every_framework_the_program_needs(string app)
    {
        var image = ComposeFile.DefaultRuntimeImage();
        var assembly = app + ".dll";
        var match = ImageReference().Match(image);
        Assert.True(match.Success, $"{assembly}: {image} is not a Microsoft .NET runtime image");
        Assert.True(FrameworksByImage.TryGetValue(match.Groups["repository"].Value, out var provided), $"{assembly}: unknown image {image}");

        // The test project references every deployable, so their runtimeconfig.json files are copied beside it.
        var config = Path.Combine(AppContext.BaseDirectory, Path.ChangeExtension(assembly, ".runtimeconfig.json"));
        using var json = JsonDocument.Parse(File.ReadAllText(config));
        var needed = json.RootElement.GetProperty("runtimeOptions").GetProperty("frameworks").EnumerateArray()
            .Select(framework => (Name: framework.GetProperty("name").GetString()!, Version: framework.GetProperty("version").GetString()!))
            .ToList();

        Assert.NotEmpty(needed);
        Assert.All(needed, framework =>
        {
            Assert.True(provided.Contains(framework.Name), $"{assembly} needs {framework.Name}, which {image} does not have");
            Assert.StartsWith(match.Groups["version"].Value + ".", framework.Version, StringComparison.Ordinal);
        });
    }

    [GeneratedRegex(@"^(?<repository>mcr\.microsoft\.com/dotnet/[a-z]+):(?<version>\d+\.\d+)$")]
    private static partial Regex ImageReference();
}
