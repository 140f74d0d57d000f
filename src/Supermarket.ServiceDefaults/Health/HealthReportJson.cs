using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Supermarket.ServiceDefaults.Health;

/// <summary>A health answer an operator can act on: the overall status and, for each check, its status and what it
/// says (a writer that is not ready because the database is away says since when), instead of ASP.NET Core's one
/// word.</summary>
public static class HealthReportJson
{
    public static async Task WriteAsync(HttpContext context, HealthReport report)
    {
        context.Response.ContentType = "application/json; charset=utf-8";
        await using var json = new Utf8JsonWriter(context.Response.Body);
        json.WriteStartObject();
        json.WriteString("status", report.Status.ToString());
        json.WriteStartObject("checks");
        foreach (var (name, entry) in report.Entries)
        {
            json.WriteStartObject(name);
            json.WriteString("status", entry.Status.ToString());
            json.WriteString("description", entry.Description);
            json.WriteEndObject();
        }

        json.WriteEndObject();
        json.WriteEndObject();
    }
}
