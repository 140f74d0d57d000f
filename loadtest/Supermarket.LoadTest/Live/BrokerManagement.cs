using System.Net.Http.Headers;
using System.Text;

namespace Supermarket.LoadTest.Live;

/// <summary>A client of RabbitMQ's management API, with the user and password the URL carries.</summary>
public static class BrokerManagement
{
    public static HttpClient CreateClient(Uri management)
    {
        var http = new HttpClient { BaseAddress = new Uri(management.GetLeftPart(UriPartial.Authority) + "/api/"), Timeout = TimeSpan.FromSeconds(2) };
        if (!string.IsNullOrEmpty(management.UserInfo))
        {
            http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(
                "Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(Uri.UnescapeDataString(management.UserInfo))));
        }

        return http;
    }
}
