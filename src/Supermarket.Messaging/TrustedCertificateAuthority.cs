using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace Supermarket.Messaging;

/// <summary>Trusts a TLS peer whose certificate chains to the deployment's own CA, not to the system's roots.</summary>
public sealed class TrustedCertificateAuthority(X509Certificate2 authority)
{
    public static TrustedCertificateAuthority FromPemFile(string path) => new(X509Certificate2.CreateFromPem(File.ReadAllText(path)));

    public bool Validate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        // The name and a missing certificate are judged by the platform; only the chain is judged here.
        if (certificate is null || (errors & ~SslPolicyErrors.RemoteCertificateChainErrors) != SslPolicyErrors.None)
        {
            return false;
        }

        using var ownChain = new X509Chain();
        ownChain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        ownChain.ChainPolicy.CustomTrustStore.Add(authority);
        // A CA made at deploy time publishes no revocation list.
        ownChain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        using var presented = new X509Certificate2(certificate);
        return ownChain.Build(presented);
    }
}
