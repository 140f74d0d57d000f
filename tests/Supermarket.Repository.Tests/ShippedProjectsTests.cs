using System.Xml.Linq;

namespace Supermarket.Repository.Tests;

/// <summary>What ships is the system alone: no project under src/ references one under loadtest/ or tests/, so the
/// AppHost, the services and their libraries build, deploy and change without the tools that exercise them.</summary>
public sealed class ShippedProjectsTests
{
    [Fact]
    public void No_project_under_src_references_the_load_test_or_the_tests()
    {
        var root = RepositoryRoot.Path;
        var source = Path.Combine(root, "src");
        var projects = Directory.EnumerateFiles(source, "*.csproj", SearchOption.AllDirectories).ToList();
        Assert.NotEmpty(projects);

        var outside = projects.SelectMany(project => XDocument.Load(project).Descendants("ProjectReference")
                .Where(reference => reference.Attribute("Include") is not null)
                .Select(reference => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(project)!, (string)reference.Attribute("Include")!)))
                .Where(referenced => !referenced.StartsWith(source + Path.DirectorySeparatorChar, StringComparison.Ordinal))
                .Select(referenced => $"{Path.GetRelativePath(root, project)} → {Path.GetRelativePath(root, referenced)}"))
            .ToList();
        Assert.True(outside.Count == 0, "src/ references what does not ship: " + string.Join("; ", outside));
    }
}
