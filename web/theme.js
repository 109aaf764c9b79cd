// The theme before the first paint (a classic script, so it runs before the page is drawn).
document.documentElement.dataset.theme = localStorage.getItem('bc-theme') || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
