using System.Globalization;
using Supermarket.Security;

// A local credential for one of the API's roles, printed alone on standard output:
//   Supermarket.Credentials till STORE [HOURS]      a till of that store: records its purchases
//   Supermarket.Credentials analyst NAME [HOURS]    an analyst: sales questions and purchase history
// The Auth section (Auth__SigningKey, Auth__Issuer, Auth__Audience) is read from the environment, as the API reads it,
// and the key is this machine's (.local/auth/signing-key, made by the AppHost) when the environment gives none.
var auth = AuthOptions.ForIssuing();
var lifetime = TimeSpan.FromHours(args.Length > 2 ? double.Parse(args[2], CultureInfo.InvariantCulture) : 12);
switch (args)
{
    case [Roles.Till, var store, ..] when int.TryParse(store, NumberStyles.None, CultureInfo.InvariantCulture, out var id):
        Console.WriteLine(LocalCredentials.ForTill(auth, id, lifetime));
        return 0;
    case [Roles.Analyst, var name, ..]:
        Console.WriteLine(LocalCredentials.ForAnalyst(auth, name, lifetime));
        return 0;
    default:
        Console.Error.WriteLine("usage: Supermarket.Credentials till STORE [HOURS] | analyst NAME [HOURS]");
        return 2;
}
