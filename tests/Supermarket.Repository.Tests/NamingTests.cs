using System.Globalization;
using System.Reflection;
using System.Text.RegularExpressions;
using MassTransit;

namespace Supermarket.Repository.Tests;

/// <summary>One name, one thing, across every assembly the deployment ships: a newcomer who finds a type by its name
/// finds the one it means, and a setting's section names one options class and one row of docs/settings.md.</summary>
public sealed partial class NamingTests
{
    private static readonly Assembly[] Shipped =
    [
        typeof(Supermarket.Api.Purchases.PurchaseIngest).Assembly,
        typeof(Supermarket.PurchasesWriter.PurchaseRecordingSetup).Assembly,
        typeof(Supermarket.SalesAggregator.SalesAggregationSetup).Assembly,
        typeof(Supermarket.LoadTest.Repository).Assembly,
    ];

    private static IEnumerable<Type> SupermarketTypes() =>
        Shipped.SelectMany(assembly => assembly.GetReferencedAssemblies().Where(name => name.Name!.StartsWith("Supermarket.", StringComparison.Ordinal))
                .Select(Assembly.Load).Append(assembly))
            .Distinct()
            .SelectMany(assembly => assembly.GetTypes())
            .Where(type => type.Namespace?.StartsWith("Supermarket.", StringComparison.Ordinal) == true
                && !type.IsNested && !type.IsDefined(typeof(System.Runtime.CompilerServices.CompilerGeneratedAttribute)));

    [Fact]
    public void No_two_types_share_a_name()
    {
        var shared = SupermarketTypes().GroupBy(type => type.Name).Where(group => group.Count() > 1)
            .Select(group => string.Join(", ", group.Select(type => type.FullName)));

        Assert.Empty(shared);
    }

    /// <summary>The same across the sources, tests and tools included, which no shipped assembly holds: a top-level
    /// type's declaration (file-scoped namespaces: it starts its line) names one type, or parts of one.</summary>
    [Fact]
    public void No_two_types_in_the_sources_share_a_name_tests_included()
    {
        var root = RepositoryRoot.Path;
        var declared = new[] { "src", "tests", "loadtest", "benchmarks", "tools" }
            .SelectMany(folder => Directory.EnumerateFiles(Path.Combine(root, folder), "*.cs", SearchOption.AllDirectories))
            .Where(file => !file.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            .SelectMany(file =>
            {
                var text = File.ReadAllText(file);
                var space = FileNamespace().Match(text).Groups["name"].Value;
                return TopLevelType().Matches(text).Select(match => (Name: match.Groups["name"].Value, FullName: $"{space}.{match.Groups["name"].Value}"));
            })
            .ToList();
        var shared = declared.GroupBy(type => type.Name).Where(group => group.Select(type => type.FullName).Distinct().Count() > 1)
            .Select(group => string.Join(", ", group.Select(type => type.FullName).Distinct()));

        Assert.True(declared.Count > 100, $"found {declared.Count} types only");
        Assert.Empty(shared);
    }

    [Fact]
    public void Every_consumer_is_named_for_it_and_has_its_definition_in_a_file_of_its_own()
    {
        var consumers = SupermarketTypes().Where(type => type.IsClass && type.GetInterfaces().Any(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IConsumer<>))).ToList();

        Assert.NotEmpty(consumers);
        Assert.All(consumers, consumer => Assert.EndsWith("Consumer", consumer.Name, StringComparison.Ordinal));
        var sources = Directory.EnumerateFiles(Path.Combine(RepositoryRoot.Path, "src"), "*.cs", SearchOption.AllDirectories)
            .Select(Path.GetFileNameWithoutExtension).ToHashSet();
        Assert.All(consumers, consumer => Assert.Contains(consumer.Name + "Definition", sources));
    }

    [Fact]
    public void Each_settings_section_is_one_options_class_and_one_row_of_the_settings_page()
    {
        var sections = SupermarketTypes()
            .Select(type => type.GetField("Section", BindingFlags.Public | BindingFlags.Static)?.GetRawConstantValue() as string)
            .OfType<string>().ToList();
        var rows = File.ReadLines(Path.Combine(RepositoryRoot.Path, "docs", "settings.md"))
            .Select(line => SettingsRow().Match(line)).Where(match => match.Success).Select(match => match.Groups["section"].Value).ToList();

        Assert.Equal(sections.Count, sections.Distinct().Count());
        Assert.Equal(rows.Count, rows.Distinct().Count());
        Assert.All(sections, section => Assert.Contains(section, rows));
    }

    /// <summary>A setting added to an options class, or renamed there, has its name in its section's row: the page
    /// lists every setting a user can set, not only the sections.</summary>
    [Fact]
    public void Every_setting_of_an_options_class_is_named_in_its_row_of_the_settings_page()
    {
        var rows = SettingsRows();
        var unnamed = OptionsClassesWithARow(rows)
            .SelectMany(options => options.Type.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                .Where(property => property.SetMethod is { IsPublic: true })
                .Where(property => !rows[options.Section].Contains($"`{property.Name}`", StringComparison.Ordinal))
                .Select(property => $"{options.Section}:{property.Name} ({options.Type.Name})"));

        Assert.Empty(unnamed);
    }

    /// <summary>The other way: each setting the page names with its default, "`Name` (default…)", is a setting of its
    /// section's options class, and the default it gives is the class's own (written as the page writes it: 5 s, 50
    /// ms, 2 min or 00:00:10; 16 KiB; true; `text`; empty). A setting renamed, removed or given a new default in code
    /// fails here until the page says so too.</summary>
    [Fact]
    public void Every_default_the_settings_page_gives_is_its_options_class_default()
    {
        var rows = SettingsRows();
        var classes = OptionsClassesWithARow(rows).ToList();
        Assert.NotEmpty(classes);

        var wrong = new List<string>();
        foreach (var (type, section) in classes)
        {
            var defaults = Activator.CreateInstance(type)!;
            foreach (Match given in SettingWithDefault().Matches(rows[section]))
            {
                var name = given.Groups["name"].Value;
                var property = type.GetProperty(name, BindingFlags.Public | BindingFlags.Instance);
                if (property is null)
                {
                    wrong.Add($"{section}:{name} is not a setting of {type.Name}");
                    continue;
                }

                var written = given.Groups["default"].Value;
                var value = property.GetValue(defaults);
                if (value is not null && !AsThePageWritesIt(value).Any(form => StartsWithWhole(written, form)))
                {
                    wrong.Add($"{section}:{name} reads ({written[..Math.Min(written.Length, 40)]}…), its class default is {string.Join(" or ", AsThePageWritesIt(value))}");
                }
            }
        }

        Assert.Empty(wrong);
    }

    /// <summary>docs/settings.md's table: each section's row.</summary>
    private static Dictionary<string, string> SettingsRows() =>
        File.ReadLines(Path.Combine(RepositoryRoot.Path, "docs", "settings.md"))
            .Select(line => (Line: line, Match: SettingsRow().Match(line))).Where(row => row.Match.Success)
            .ToDictionary(row => row.Match.Groups["section"].Value, row => row.Line);

    /// <summary>The options classes (a public const Section) whose section has a row.</summary>
    private static IEnumerable<(Type Type, string Section)> OptionsClassesWithARow(Dictionary<string, string> rows) =>
        SupermarketTypes()
            .Select(type => (Type: type, Section: type.GetField("Section", BindingFlags.Public | BindingFlags.Static)?.GetRawConstantValue() as string))
            .Where(options => options.Section is not null && rows.ContainsKey(options.Section))
            .Select(options => (options.Type, options.Section!));

    private static IEnumerable<string> AsThePageWritesIt(object value)
    {
        switch (value)
        {
            case TimeSpan span:
                yield return span.ToString("c", CultureInfo.InvariantCulture);
                if (span < TimeSpan.FromSeconds(1))
                {
                    yield return $"{span.TotalMilliseconds.ToString(CultureInfo.InvariantCulture)} ms";
                }
                else if (span < TimeSpan.FromMinutes(1))
                {
                    yield return $"{span.TotalSeconds.ToString(CultureInfo.InvariantCulture)} s";
                }
                else
                {
                    yield return $"{span.TotalMinutes.ToString(CultureInfo.InvariantCulture)} min";
                }

                break;
            case bool flag:
                yield return flag ? "true" : "false";
                break;
            case string text when text.Length == 0:
                // An empty secret is none: the page says the process does not start without one.
                yield return "empty";
                yield return "no default";
                break;
            case string text:
                yield return text;
                yield return $"`{text}`";
                break;
            case int or long when Convert.ToInt64(value, CultureInfo.InvariantCulture) is var number && number % 1024 == 0 && number > 0:
                yield return number.ToString(CultureInfo.InvariantCulture);
                yield return $"{number / 1024} KiB";
                break;
            case Enum choice:
                yield return choice.ToString();
                yield return $"`{choice}`";
                break;
            default:
                yield return Convert.ToString(value, CultureInfo.InvariantCulture)!;
                break;
        }
    }

    // "10" is not how "100" starts.
    private static bool StartsWithWhole(string written, string form) =>
        written.StartsWith(form, StringComparison.Ordinal) && (written.Length == form.Length || !char.IsLetterOrDigit(written[form.Length]));

    [GeneratedRegex(@"^\| `(?<section>[A-Za-z:]+)` \| ")]
    private static partial Regex SettingsRow();

    // A setting and what follows its opening parenthesis, up to the next setting or the end of its cell.
    [GeneratedRegex(@"`(?<name>[A-Z][A-Za-z]+)` \((?<default>[^|]*?)(?=`[A-Z][A-Za-z]+` \(|\||$)")]
    private static partial Regex SettingWithDefault();

    [GeneratedRegex(@"^namespace (?<name>[\w.]+);", RegexOptions.Multiline)]
    private static partial Regex FileNamespace();

    [GeneratedRegex(@"^(?:\[[^\]]*\]\s*)?(?:(?:public|internal|file|static|sealed|abstract|partial|readonly|ref|unsafe)\s+)*(?:class|record(?:\s+struct|\s+class)?|struct|interface|enum)\s+(?<name>\w+)", RegexOptions.Multiline)]
    private static partial Regex TopLevelType();
}
