namespace Supermarket.Repository.Tests;

/// <summary>Comments under src/ say why in a line or two; rationale longer than that is in docs/architecture.md and
/// history in git, so comments stay a small share of each shipped project's lines.</summary>
public sealed class CommentShareTests
{
    /// <summary>The most of a project's C# lines that may be comments.</summary>
    private const double MostShare = 0.08;

    [Fact]
    public void Comments_are_at_most_8_percent_of_each_shipped_projects_lines()
    {
        var source = Path.Combine(RepositoryRoot.Path, "src");
        var projects = Directory.GetDirectories(source);
        Assert.NotEmpty(projects);

        var over = projects.Select(project => (Name: Path.GetFileName(project), Share: CommentShare(project)))
            .Where(project => project.Share > MostShare)
            .Select(project => $"{project.Name} {project.Share:P1}")
            .ToList();
        Assert.True(over.Count == 0, $"comments over {MostShare:P0} of a project's lines: " + string.Join("; ", over));
    }

    private static double CommentShare(string project)
    {
        var lines = Directory.EnumerateFiles(project, "*.cs", SearchOption.AllDirectories)
            .Where(file => !file.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !file.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .SelectMany(File.ReadLines)
            .Select(line => line.TrimStart())
            .ToList();
        return lines.Count == 0 ? 0 : (double)lines.Count(line => line.StartsWith("//", StringComparison.Ordinal) || line.StartsWith("/*", StringComparison.Ordinal)
            || line.StartsWith("* ", StringComparison.Ordinal)) / lines.Count;
    }
}
