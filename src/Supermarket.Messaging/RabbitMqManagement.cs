namespace Supermarket.Messaging;

public static class RabbitMqManagement
{
    public const int DefaultPort = 15672;
}
