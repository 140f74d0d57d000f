using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Supermarket.Messaging;

namespace Supermarket.Messaging.Tests;

/// <summary>The broker's TLS with the deployment's own CA (Broker:TlsCaFile): a certificate that CA signed passes,
/// one another CA signed does not, and a wrong name fails whatever signed it.</summary>
public sealed class TrustedCertificateAuthorityTests
{
    [Fact]
    public void A_certificate_the_CA_signed_is_trusted_and_one_another_CA_signed_is_not()
    {
        using var ours = Authority("Supermarket test CA");
        using var theirs = Authority("Someone else's CA");
        using var signedByUs = Leaf(ours, "rabbitmq-1");
        using var signedByThem = Leaf(theirs, "rabbitmq-1");
        var trust = new TrustedCertificateAuthority(X509CertificateLoader.LoadCertificate(ours.RawData));

        // What the platform reports for a certificate whose root it does not know: a chain error, nothing else.
        Assert.True(trust.Validate(this, signedByUs, null, SslPolicyErrors.RemoteCertificateChainErrors));
        Assert.False(trust.Validate(this, signedByThem, null, SslPolicyErrors.RemoteCertificateChainErrors));
        Assert.False(trust.Validate(this, signedByUs, null, SslPolicyErrors.RemoteCertificateNameMismatch | SslPolicyErrors.RemoteCertificateChainErrors));
        Assert.False(trust.Validate(this, null, null, SslPolicyErrors.RemoteCertificateNotAvailable));
    }

    [Fact]
    public void The_CA_is_read_from_a_PEM_file()
    {
        using var ours = Authority("Supermarket test CA");
        using var signedByUs = Leaf(ours, "mariadb");
        var path = Path.Combine(Path.GetTempPath(), $"ca-{Guid.NewGuid():N}.pem");
        File.WriteAllText(path, ours.ExportCertificatePem());
        try
        {
            Assert.True(TrustedCertificateAuthority.FromPemFile(path).Validate(this, signedByUs, null, SslPolicyErrors.RemoteCertificateChainErrors));
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static X509Certificate2 Authority(string name)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest($"CN={name}", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, true));
        return request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
    }

    private static X509Certificate2 Leaf(X509Certificate2 authority, string host)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest($"CN={host}", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName(host);
        request.CertificateExtensions.Add(names.Build());
        return request.Create(authority, DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(10), RandomNumberGenerator.GetBytes(8));
    }
}
