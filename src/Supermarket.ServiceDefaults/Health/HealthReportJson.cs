using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Supermarket.ServiceDefaults.Health;

/// <summary>A health answer an operator can act on: each check's status and what it says, not one word.</summary>
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
            if (entry.Data.Count > 0)
            {
                WriteData(json, entry.Data);
            }

            json.WriteEndObject();
        }

        json.WriteEndObject();
        json.WriteEndObject();
    }

    // By hand: JsonSerializer would flush, and the response body takes no synchronous writes.
    private static void WriteData(Utf8JsonWriter json, IReadOnlyDictionary<string, object> data)
    {
        json.WriteStartObject("data");
        foreach (var (key, value) in data)
        {
            switch (value)
            {
                case bool flag: json.WriteBoolean(key, flag); break;
                case long number: json.WriteNumber(key, number); break;
                default: json.WriteString(key, Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture)); break;
            }
        }

        json.WriteEndObject();
    }
}
