// One container app of the system: its image (azd replaces the placeholder with the one it built from
// docker/Dockerfile for the service named in azure.yaml), its secrets read from Key Vault by the environment's
// identity, its ingress, its health probes on the management port (/health/live, /health/ready) and its scale rules.

param name string
@description('The service in azure.yaml whose image azd deploys here; empty for an image from a public registry.')
param serviceName string = ''
param location string
param tags object
param environmentId string
param identityId string
@description('The registry azd pushes the services\' images to; empty for an image from a public registry.')
param registry string = ''
@description('The first image: azd deploys the service\'s own over it.')
param image string = 'mcr.microsoft.com/k8se/quickstart:latest'
@description('Public HTTP ingress on this port; 0 for none.')
param httpPort int = 0
@description('Internal TCP ingress on this port (RabbitMQ\'s AMQP); 0 for none.')
param tcpPort int = 0
@description('Where /health/live and /health/ready answer; 0 for no probes.')
param probePort int = 0
param secrets array = []
param env array = []
param volumes array = []
param volumeMounts array = []
param minReplicas int
param maxReplicas int
param scaleRules array = []

var probes = probePort == 0 ? [] : [
  { type: 'Liveness', httpGet: { path: '/health/live', port: probePort }, periodSeconds: 10, failureThreshold: 3 }
  { type: 'Readiness', httpGet: { path: '/health/ready', port: probePort }, periodSeconds: 10, failureThreshold: 3 }
  { type: 'Startup', httpGet: { path: '/health/live', port: probePort }, periodSeconds: 5, failureThreshold: 24 }
]

var ingress = httpPort != 0 ? {
  external: true
  targetPort: httpPort
  transport: 'http'
} : tcpPort != 0 ? {
  external: false
  targetPort: tcpPort
  exposedPort: tcpPort
  transport: 'tcp'
} : null

resource app 'Microsoft.App/containerApps@2024-03-01' = {
  name: name
  location: location
  tags: empty(serviceName) ? tags : union(tags, { 'azd-service-name': serviceName })
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identityId}': {} }
  }
  properties: {
    environmentId: environmentId
    configuration: {
      activeRevisionsMode: 'Single'
      ingress: ingress
      registries: empty(registry) ? [] : [ { server: registry, identity: identityId } ]
      secrets: secrets
    }
    template: {
      containers: [
        {
          name: name
          image: image
          env: env
          probes: probes
          volumeMounts: volumeMounts
          resources: { cpu: json('0.5'), memory: '1Gi' }
        }
      ]
      volumes: volumes
      scale: {
        minReplicas: minReplicas
        maxReplicas: maxReplicas
        rules: scaleRules
      }
    }
  }
}

output url string = httpPort == 0 ? '' : 'https://${app.properties.configuration.ingress.fqdn}'
