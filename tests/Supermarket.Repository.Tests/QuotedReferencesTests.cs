using System.CommandLine;
using System.Text.RegularExpressions;
using Supermarket.LoadTest;

namespace Supermarket.Repository.Tests;

/// <summary>
/// What the documentation and the strings users and operators meet quote exists: a file or folder of the repository, a
/// verb of one of its scripts, a command of run.sh. A command removed while something still quotes it fails here, not
/// in front of a user (#58: Swagger's Authorize dialog sent users to a removed <c>./run.sh credential</c>, and typing it
/// started a load test; the writer's log sent operators to a verb scripts/services.sh did not have). Quoted means in
/// backticks (Markdown, and the log lines and descriptions that borrow them), in <c>&lt;c&gt;</c> (XML comments) or on
/// a line of a Markdown code block; prose may tell the history of what is gone.
/// </summary>
public sealed partial class QuotedReferencesTests
{
    private static readonly string Root = RepositoryRoot.Path;

    /// <summary>The load test's command line, whose commands a quoted one is looked up in.</summary>
    private static readonly RootCommand LoadTestCommandLine = new LoadCommandLine().Command;

    /// <summary>The folders a quoted path of the repository starts with.</summary>
    private static readonly string[] Folders = ["src/", "tests/", "tools/", "scripts/", "loadtest/", "benchmarks/", "docs/", "docker/", "infra/", ".ci/"];

    [Fact]
    public void Every_path_of_the_repository_quoted_in_the_documentation_exists()
    {
        var missing = Documentation()
            .SelectMany(file => Quotes(file).SelectMany(quote => quote.Text.Split(' ', StringSplitOptions.RemoveEmptyEntries)
                .Select(word => (quote.Where, Path: RepositoryPath(word)))))
            .Where(quoted => quoted.Path is not null && !File.Exists(Path.Combine(Root, quoted.Path)) && !Directory.Exists(Path.Combine(Root, quoted.Path)))
            .Select(quoted => $"{quoted.Where}: {quoted.Path}");

        Assert.Empty(missing);
    }

    [Fact]
    public void Every_script_verb_and_run_sh_command_quoted_in_the_documentation_and_the_code_exists()
    {
        var unknown = Documentation().Concat(Code())
            .SelectMany(Quotes)
            .Select(quote => (quote.Where, Command: ScriptCommand().Match(quote.Text)))
            .Where(quoted => quoted.Command.Success)
            .Where(quoted => quoted.Command.Groups["verb"].Success
                ? !Verbs(quoted.Command.Groups["script"].Value).Contains(quoted.Command.Groups["verb"].Value)
                : !File.Exists(Path.Combine(Root, quoted.Command.Groups["script"].Value)))
            .Select(quoted => $"{quoted.Where}: {quoted.Command.Value}");

        Assert.Empty(unknown);
    }

    /// <summary>A load-test command quoted as a reader types it (<c>dotnet run --project loadtest/Supermarket.LoadTest --
    /// fill-history …</c>, <c>… -- broker delete-queues</c>) is one the load test has: its words name a command of its
    /// command line, and a subcommand of that while it has subcommands (its arguments follow).</summary>
    [Fact]
    public void Every_load_test_command_quoted_in_the_documentation_and_the_code_exists()
    {
        // The check below is only as good as this reading.
        Assert.True(LoadTestCommandExists("fill-history"));
        Assert.True(LoadTestCommandExists("fault pause purchases-writer"));
        Assert.True(LoadTestCommandExists("broker delete-queues"));
        Assert.True(LoadTestCommandExists("system pids"));
        Assert.False(LoadTestCommandExists("system"));
        Assert.False(LoadTestCommandExists("broker delete-queue"));
        Assert.False(LoadTestCommandExists("broker"));
        Assert.False(LoadTestCommandExists("fill-histories"));

        var unknown = Documentation().Concat(Code())
            .SelectMany(Quotes)
            .SelectMany(quote => LoadTestCommandQuoted().Matches(quote.Text).Select(match => (quote.Where, Command: match.Groups["command"].Value)))
            .Where(quoted => !LoadTestCommandExists(quoted.Command))
            .Select(quoted => $"{quoted.Where}: {quoted.Command}");

        Assert.Empty(unknown);
    }

    /// <summary>Whether the words name a command of the load test's command line that runs: each one a subcommand of
    /// the one before while that one has subcommands (a group alone, <c>broker</c>, runs nothing); the words after a
    /// command without subcommands are its arguments.</summary>
    private static bool LoadTestCommandExists(string quoted)
    {
        Command command = LoadTestCommandLine;
        foreach (var word in quoted.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (command.Subcommands.Count == 0)
            {
                break;
            }

            var named = command.Subcommands.FirstOrDefault(subcommand => subcommand.Name == word || subcommand.Aliases.Contains(word));
            if (named is null)
            {
                return false;
            }

            command = named;
        }

        return command.Subcommands.Count == 0 || command.Action is not null;
    }

    /// <summary>A test quoted by name (<c>SchemaMigrationTests</c>, <c>LedgerFollowingTests.Rolled_back_…</c>), as the
    /// documentation quotes the test that proves each promise, is one the tests have (found: a promise in
    /// docs/reliability.md proved by a test renamed since).</summary>
    [Fact]
    public void Every_test_quoted_in_the_documentation_exists()
    {
        var tests = new Dictionary<string, HashSet<string>>();
        foreach (var file in Directory.EnumerateFiles(Path.Combine(Root, "tests"), "*.cs", SearchOption.AllDirectories))
        {
            var text = File.ReadAllText(file);
            var methods = TestMethod().Matches(text).Select(match => match.Groups["name"].Value);
            foreach (Match declared in TestClass().Matches(text))
            {
                tests.TryAdd(declared.Groups["name"].Value, []);
                tests[declared.Groups["name"].Value].UnionWith(methods);
            }
        }

        Assert.Contains("Every_test_quoted_in_the_documentation_exists", tests["QuotedReferencesTests"]);

        var unknown = Documentation()
            .SelectMany(Quotes)
            .Select(quote => (quote.Where, Test: QuotedTest().Match(quote.Text)))
            .Where(quoted => quoted.Test.Success)
            .Where(quoted => !tests.TryGetValue(quoted.Test.Groups["class"].Value, out var methods)
                || (quoted.Test.Groups["method"].Success && !methods.Contains(quoted.Test.Groups["method"].Value)))
            .Select(quoted => $"{quoted.Where}: {quoted.Test.Value}");

        Assert.Empty(unknown);
    }

    /// <summary>Every link between the README and the pages of docs/ leads somewhere: its file exists and its
    /// <c>#anchor</c> is one of that page's headings as GitHub names them (found: two links to a heading whose date
    /// held a colon).</summary>
    [Fact]
    public void Every_link_in_the_documentation_leads_to_a_file_and_heading_that_exist()
    {
        var broken = Documentation()
            .SelectMany(file => File.ReadLines(file).SelectMany((line, index) => MarkdownLink().Matches(line)
                .Select(match => (File: file, Where: $"{Path.GetRelativePath(Root, file)}:{index + 1}", Target: match.Groups["target"].Value))))
            .Where(link => !link.Target.Contains("://", StringComparison.Ordinal) && !link.Target.StartsWith("mailto:", StringComparison.Ordinal))
            .Where(link => !Leads(link.File, link.Target))
            .Select(link => $"{link.Where}: {link.Target}");

        Assert.Empty(broken);
    }

    private static bool Leads(string from, string target)
    {
        var hash = target.IndexOf('#', StringComparison.Ordinal);
        var path = hash < 0 ? target : target[..hash];
        var file = path.Length == 0 ? from : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(from)!, Uri.UnescapeDataString(path)));
        if (!File.Exists(file) && !Directory.Exists(file))
        {
            return false;
        }

        return hash < 0 || (file.EndsWith(".md", StringComparison.Ordinal) && Anchors(file).Contains(target[(hash + 1)..]));
    }

    /// <summary>A page's headings as GitHub's anchors: lower case, spaces as hyphens, every other character that is not
    /// a letter, digit, hyphen or underscore dropped; a repeated one gets -1, -2, ...</summary>
    private static HashSet<string> Anchors(string page)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        var inCode = false;
        foreach (var line in File.ReadLines(page))
        {
            inCode ^= line.StartsWith("```", StringComparison.Ordinal);
            if (inCode || !line.StartsWith('#'))
            {
                continue;
            }

            var slug = string.Concat(line.TrimStart('#').Trim().ToLowerInvariant()
                .Where(c => char.IsLetterOrDigit(c) || c is '-' or '_' or ' ')).Replace(' ', '-');
            var unique = slug;
            for (var n = 1; !anchors.Add(unique); n++)
            {
                unique = $"{slug}-{n}";
            }
        }

        return anchors;
    }

    /// <summary>Comments in scripts, configuration and tests name scripts too, quoted or not: a script removed while a
    /// comment still sends its reader there fails here (#58: when the chaos run's faults script became C#, seven of
    /// its mentions had to go).</summary>
    [Fact]
    public void Every_script_named_anywhere_in_the_repository_exists()
    {
        var missing = TextFiles()
            .SelectMany(file => File.ReadLines(file).SelectMany((line, index) => ScriptName().Matches(line)
                .Select(match => (Where: $"{Path.GetRelativePath(Root, file)}:{index + 1}", Script: match.Value))))
            .Where(named => !File.Exists(Path.Combine(Root, named.Script)))
            .Select(named => $"{named.Where}: {named.Script}");

        Assert.Empty(missing);
    }

    [Fact]
    public void The_verbs_are_read_from_the_scripts_case_labels()
    {
        // The check above is only as good as this reading: run.sh's commands, and services.sh's.
        Assert.Superset(new HashSet<string> { "up", "down", "status", "chaos" }, Verbs("run.sh"));
        Assert.Superset(new HashSet<string> { "install" }, Verbs("scripts/services.sh"));
        Assert.DoesNotContain("rabbit-delete-app-queues", Verbs("scripts/services.sh"));
        Assert.DoesNotContain("credential", Verbs("run.sh"));
    }

    private static IEnumerable<string> Documentation() =>
        [Path.Combine(Root, "README.md"), .. Directory.EnumerateFiles(Path.Combine(Root, "docs"), "*.md")];

    private static IEnumerable<string> Code() =>
        new[] { "src", "loadtest", "tools" }.SelectMany(folder => Directory.EnumerateFiles(Path.Combine(Root, folder), "*.cs", SearchOption.AllDirectories))
            .Where(file => !file.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !file.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal));

    /// <summary>Every file a person reads or a program runs, outside what builds and runs leave (bin, obj, .local, the
    /// load test's reports).</summary>
    private static IEnumerable<string> TextFiles() =>
        Directory.EnumerateFiles(Root, "*", SearchOption.AllDirectories)
            .Where(file => TextExtensions.Contains(Path.GetExtension(file)) || Path.GetFileName(file) is "run" or "Containerfile")
            .Where(file => !Path.GetRelativePath(Root, file).Split(Path.DirectorySeparatorChar)
                .Any(part => part is "bin" or "obj" or ".local" or ".git" or "reports" or "node_modules"));

    private static readonly HashSet<string> TextExtensions =
        [".cs", ".sh", ".md", ".yaml", ".yml", ".conf", ".cnf", ".template", ".sql", ".json", ".props", ".targets", ".csproj", ".lua", ".bicep", ".Containerfile"];

    /// <summary>What a file quotes: text in backticks or <c>&lt;c&gt;</c>, and in Markdown every line of a fenced code
    /// block, which a reader copies whole.</summary>
    private static IEnumerable<(string Where, string Text)> Quotes(string file)
    {
        var markdown = file.EndsWith(".md", StringComparison.Ordinal);
        var inCode = false;
        var number = 0;
        foreach (var line in File.ReadLines(file))
        {
            var where = $"{Path.GetRelativePath(Root, file)}:{++number}";
            if (markdown && line.TrimStart().StartsWith("```", StringComparison.Ordinal))
            {
                inCode = !inCode;
            }
            else if (inCode)
            {
                yield return (where, line.Trim());
            }
            else
            {
                foreach (Match match in Quoted().Matches(line))
                {
                    yield return (where, match.Groups["text"].Value);
                }
            }
        }
    }

    /// <summary>A word that names something in the repository, as it would be typed from its root; null otherwise
    /// (placeholders, elided paths, the load test's reports, which each run makes).</summary>
    private static string? RepositoryPath(string word)
    {
        var path = word.TrimStart('(', '"', '\'').TrimEnd('.', ',', ';', ':', ')', '"', '\'');
        path = path.StartsWith("./", StringComparison.Ordinal) ? path[2..] : path;
        if (path is not ("run.sh" or "test.sh") && !Folders.Any(folder => path.StartsWith(folder, StringComparison.Ordinal)))
        {
            return null;
        }

        return path.IndexOfAny(['<', '>', '*', '{', '}', '$', '[', ']', '|', '…']) >= 0 || path.StartsWith("loadtest/reports/", StringComparison.Ordinal)
            ? null
            : path.Split('#')[0].Split(':')[0].TrimEnd('/');
    }

    /// <summary>The verbs a script dispatches on: the labels of its case statements (<c>  up)</c>,
    /// <c>  install | reinstall)</c>).</summary>
    private static HashSet<string> Verbs(string script) =>
        File.Exists(Path.Combine(Root, script))
            ? [.. File.ReadLines(Path.Combine(Root, script)).Select(line => CaseLabel().Match(line)).Where(match => match.Success)
                .SelectMany(match => match.Groups["labels"].Value.Split('|', StringSplitOptions.TrimEntries))]
            : [];

    /// <summary>A Markdown link or image: <c>[text](target)</c>, the target without a title.</summary>
    [GeneratedRegex(@"\]\((?<target>[^)\s]+)(?:\s+""[^""]*"")?\)")]
    private static partial Regex MarkdownLink();

    [GeneratedRegex(@"`(?<text>[^`]+)`|<c>(?<text>.*?)</c>")]
    private static partial Regex Quoted();

    [GeneratedRegex(@"^(?:\./)?(?<script>run\.sh|scripts/[a-z-]+\.sh)(?:\s+(?<verb>[a-z][a-z0-9-]*))?")]
    private static partial Regex ScriptCommand();

    /// <summary>A script of the repository as a path from its root: scripts/, loadtest/, docker/ or infra/hooks/.</summary>
    [GeneratedRegex(@"(?<![\w./-])(?:scripts|loadtest|docker|infra/hooks)/[a-z0-9-]+\.sh\b")]
    private static partial Regex ScriptName();

    [GeneratedRegex(@"^\s+(?<labels>[a-z][a-z0-9-]*(?:\s*\|\s*[a-z][a-z0-9-]*)*)\)")]
    private static partial Regex CaseLabel();

    /// <summary>A load-test command line as quoted: its words after <c>--</c>, up to the first option.</summary>
    [GeneratedRegex(@"--project loadtest/Supermarket\.LoadTest\S* -- (?<command>[a-z][a-z-]*(?: +[a-z][a-z-]*)*)")]
    private static partial Regex LoadTestCommandQuoted();

    /// <summary>A quote that is a test class (<c>Recording/PurchaseBatchRecordedConsumerTests</c>) or one of its
    /// tests; an elided name (…) names no method.</summary>
    [GeneratedRegex(@"^(?:[A-Za-z]+/)*(?<class>[A-Z]\w*Tests)(?:\.(?<method>[A-Z]\w*)(?!…))?$")]
    private static partial Regex QuotedTest();

    [GeneratedRegex(@"\bclass\s+(?<name>\w+Tests)\b")]
    private static partial Regex TestClass();

    [GeneratedRegex(@"public\s+(?:async\s+)?(?:Task|void)\s+(?<name>\w+)\s*\(")]
    private static partial Regex TestMethod();
}
